// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { parseRef, RefRegistry, refPrefix } from './refs';

describe('RefRegistry', () => {
  it('numbers from the tab counter and never goes backwards', () => {
    const refs = new RefRegistry('');
    refs.startAt(40);
    const a = document.createElement('button');
    document.body.append(a);
    expect(refs.refFor(a)).toBe('e40');
    refs.startAt(10);
    const b = document.createElement('button');
    document.body.append(b);
    expect(refs.refFor(b)).toBe('e41');
    expect(refs.next).toBe(42);
  });

  it('refuses a ref once its element left the document, before and after pruning', () => {
    const refs = new RefRegistry('f3');
    const a = document.createElement('a');
    document.body.append(a);
    const ref = refs.refFor(a);
    expect(ref).toMatch(/^f3e\d+$/);
    a.remove();
    expect(refs.resolve(ref)).toBeUndefined();
    refs.prune();
    expect(refs.resolve(ref)).toBeUndefined();
    // Back in the document, the same element is named by the same ref again.
    document.body.append(a);
    expect(refs.refFor(a)).toBe(ref);
    expect(refs.resolve(ref)).toBe(a);
  });

  it('owns only refs of its own frame', () => {
    const top = new RefRegistry(refPrefix(0));
    const child = new RefRegistry(refPrefix(7));
    expect(top.owns('e5')).toBe(true);
    expect(top.owns('f7e5')).toBe(false);
    expect(child.owns('f7e5')).toBe(true);
    expect(child.owns('e5')).toBe(false);
    expect(child.owns('f7e5x')).toBe(false);
  });

  it('parses refs and rejects anything else', () => {
    expect(parseRef('e12')).toEqual({ frameId: 0, n: 12 });
    expect(parseRef('f9e3')).toEqual({ frameId: 9, n: 3 });
    expect(parseRef('button')).toBeUndefined();
    expect(parseRef('e')).toBeUndefined();
  });
});
