import { describe, expect, it } from 'vitest';
import { forwardingText } from './forwarding-status';

describe('forwardingText', () => {
  it('says where the log goes, what waits and when it last got through', () => {
    expect(forwardingText({ kind: 'on', origin: 'https://audit.example', waiting: 3 })).toBe(
      'Forwarding to https://audit.example: 3 waiting, last sent never.',
    );
    const sent = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(forwardingText({ kind: 'on', origin: 'https://audit.example', waiting: 0, lastSentAt: sent })).toBe(
      `Forwarding to https://audit.example: 0 waiting, last sent ${new Date(sent).toLocaleString()}.`,
    );
  });

  it('adds the last failure, and says why a collector URL was refused', () => {
    expect(
      forwardingText({
        kind: 'on',
        origin: 'https://audit.example',
        waiting: 2,
        lastError: 'the collector answered 503',
      }),
    ).toBe(
      'Forwarding to https://audit.example: 2 waiting, last sent never. The last try failed: the collector answered 503; trying again.',
    );
    expect(forwardingText({ kind: 'refused', url: 'http://a.example/', reason: 'use https' })).toBe(
      'Audit forwarding is off: use https',
    );
    expect(forwardingText({ kind: 'off' })).toBe('');
  });
});
