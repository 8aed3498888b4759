import { describe, expect, it } from 'vitest';
import { contentSummary, decodedBytes, isBase64 } from './file-content';

describe('file contents in arguments', () => {
  it('accepts standard base64 with or without padding, and nothing else', () => {
    for (const good of ['', 'aGVsbG8=', 'aGVsbG8', 'aGk=', 'aGk', 'AAAA', '+/+/'])
      expect(isBase64(good), good).toBe(true);
    for (const bad of ['x', 'aGVsbG8==', 'a GVs', 'aGVs*G8=', 'aGVsbG8=x', '-_-_', '=', 'aGVsb==='])
      expect(isBase64(bad), bad).toBe(false);
  });

  it('measures the decoded size without decoding', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 1000, 4097]) {
      const text = Buffer.alloc(bytes, 7).toString('base64');
      expect(decodedBytes(text)).toBe(bytes);
      expect(decodedBytes(text.replace(/=+$/, ''))).toBe(bytes);
    }
  });

  it('summarises contents by size only', () => {
    expect(contentSummary(Buffer.from('twelve bytes').toString('base64'))).toBe('(12 B, contents not shown)');
    expect(contentSummary(Buffer.alloc(2048).toString('base64'))).toBe('(2.0 kB, contents not shown)');
    expect(contentSummary('secret%%')).toBe('(not base64, not shown)');
    expect(contentSummary(42)).toBe('(contents not shown)');
  });
});
