import { describe, expect, it } from 'vitest';
import { HintMemory, parseRegistrations, withRegisteredHints } from './registered-hints';

const records = (...entries: [string, boolean, boolean][]) => parseRegistrations(JSON.stringify(entries));
const gated = (annotations: Record<string, unknown>, registrations = records(), memory = new HintMemory()) =>
  withRegisteredHints([{ name: 'tool', annotations }], registrations, memory)[0]!;

describe('parseRegistrations', () => {
  it('reads the hook’s records, keeping the stricter of two for one name', () => {
    expect([...records(['a', true, false], ['a', true, true], ['b', false, false])!]).toEqual([
      ['a', { readOnlyHint: true, destructiveHint: true }],
      ['b', { readOnlyHint: false, destructiveHint: false }],
    ]);
  });

  it('has none to go by when the text is missing, malformed or too long', () => {
    for (const text of [
      undefined,
      42,
      'not json',
      '{"a":[true,false]}',
      '[["a","yes",false]]',
      `[${' '.repeat(100_001)}]`,
    ]) {
      expect(parseRegistrations(text), String(text).slice(0, 20)).toBeUndefined();
    }
  });
});

describe('withRegisteredHints', () => {
  it('gates a tool by the stricter of Chromium’s hints and its record', () => {
    const read = records(['tool', true, false]);
    expect(gated({ readOnlyHint: true }, read)).toEqual({
      name: 'tool',
      annotations: { readOnlyHint: true, consequentialHint: false },
    });
    expect(gated({ readOnlyHint: true }, records(['tool', true, true])).annotations).toEqual({
      readOnlyHint: false,
      consequentialHint: true,
    });
    expect(gated({ readOnlyHint: true, consequentialHint: true }, read).annotations).toMatchObject({
      consequentialHint: true,
    });
    expect(gated({ readOnlyHint: false }, read).annotations).toEqual({ readOnlyHint: false, consequentialHint: false });
    expect(gated({ readOnlyHint: true }, records(['tool', false, false])).annotations).toEqual({
      readOnlyHint: false,
      consequentialHint: false,
    });
  });

  it('marks a tool without a record as unseen, and so confirmed every call', () => {
    for (const registrations of [undefined, records(), records(['other', true, false])]) {
      expect(gated({ readOnlyHint: true }, registrations)).toEqual({
        name: 'tool',
        annotations: { consequentialHint: true },
        hintsUnseen: true,
      });
    }
  });

  it('never lets a later reading of the same document make a tool laxer', () => {
    const memory = new HintMemory();
    memory.documentIs('doc-1');
    expect(gated({ readOnlyHint: true }, records(['tool', true, true]), memory).annotations).toMatchObject({
      consequentialHint: true,
    });
    memory.documentIs('doc-1');
    expect(gated({ readOnlyHint: true }, records(['tool', true, false]), memory).annotations).toMatchObject({
      consequentialHint: true,
    });
    memory.documentIs('doc-2');
    expect(gated({ readOnlyHint: true }, records(['tool', true, false]), memory).annotations).toEqual({
      readOnlyHint: true,
      consequentialHint: false,
    });
  });

  it('confirms every call in a document that churns through more names than it can remember', () => {
    const memory = new HintMemory();
    memory.documentIs('doc-1');
    for (let i = 0; i < 1024; i++) memory.raise(`t${i}`, 'read');
    expect(memory.raise('one-more', 'read')).toBe('every-call');
    expect(memory.raise('t0', 'read')).toBe('every-call');
  });
});
