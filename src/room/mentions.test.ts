import { describe, expect, it } from 'vitest';
import { findMentions } from './mentions';

const agents = [
  { id: '1', name: 'Ann' },
  { id: '2', name: 'Ann Lee' },
  { id: '3', name: 'example.com' },
  { id: '4', name: 'Bob' },
];
const names = (text: string) => findMentions(text, agents).map((a) => a.name);

describe('findMentions', () => {
  it('finds several mentions, case-insensitively, once each', () => {
    expect(names('@ann and @BOB, then @bob again')).toEqual(['Ann', 'Bob']);
  });
  it('prefers the longest matching name', () => {
    expect(names('hey @Ann Lee, look')).toEqual(['Ann Lee']);
    expect(names('hey @Ann, look')).toEqual(['Ann']);
  });
  it('ignores e-mail addresses, even when an agent is named like the host', () => {
    expect(names('write to bob@example.com or ann@example.com')).toEqual([]);
    expect(names('ask @example.com about it')).toEqual(['example.com']);
  });
  it('ignores mentions of unknown agents and longer words', () => {
    expect(names('@Annabel and @Carol')).toEqual([]);
    expect(names('@Bobby')).toEqual([]);
  });
  it('accepts punctuation after a name and mentions at the very start or end', () => {
    expect(names('@Bob: hi')).toEqual(['Bob']);
    expect(names('thanks @Ann')).toEqual(['Ann']);
    expect(names('(@Bob)')).toEqual(['Bob']);
  });
});
