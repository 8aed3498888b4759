import { describe, expect, it } from 'vitest';
import { TabOwnership, type OwnershipChange } from './tab-ownership';

describe('TabOwnership', () => {
  it('gives a tab to one caller at a time: giving it to another takes it from the first', () => {
    const tabs = new TabOwnership();
    tabs.give(5, 'alpha');
    expect([tabs.ownerOf(5), tabs.currentOf('alpha')]).toEqual(['alpha', 5]);
    tabs.give(5, 'beta');
    expect([tabs.ownerOf(5), tabs.currentOf('alpha'), tabs.currentOf('beta')]).toEqual(['beta', undefined, 5]);
    expect(tabs.tabsOf('alpha')).toEqual([]);
  });

  it('keeps what a caller opened as its own, current only when it says so, and switches among its own only', () => {
    const tabs = new TabOwnership();
    tabs.opened(1, 'alpha', true);
    tabs.opened(2, 'alpha', false);
    expect([tabs.tabsOf('alpha'), tabs.currentOf('alpha')]).toEqual([[1, 2], 1]);
    expect(tabs.switchTo('alpha', 2)).toBe(true);
    expect(tabs.switchTo('alpha', 9)).toBe(false);
    expect(tabs.currentOf('alpha')).toBe(2);
  });

  it('tells a caller once the person closed its current tab, and chooses no other for it', () => {
    const tabs = new TabOwnership();
    tabs.opened(1, 'alpha', false);
    tabs.opened(2, 'alpha', true);
    tabs.closed(2);
    expect([tabs.currentOf('alpha'), tabs.closedOf('alpha'), tabs.tabsOf('alpha')]).toEqual([undefined, 2, [1]]);
    tabs.switchTo('alpha', 1);
    expect(tabs.closedOf('alpha')).toBeUndefined();
    tabs.opened(3, 'alpha', true);
    tabs.closedByOwner(3);
    expect(tabs.closedOf('alpha')).toBeUndefined();
  });

  it('takes back, forgets a caller and clears, telling listeners', () => {
    const tabs = new TabOwnership();
    const changes: OwnershipChange[] = [];
    tabs.onChange((change) => changes.push(change));
    tabs.give(1, 'alpha');
    tabs.give(2, 'alpha/mcp:x');
    tabs.takeBack(1);
    expect(tabs.ownerOf(1)).toBeUndefined();
    expect(tabs.callers('alpha')).toEqual(['alpha/mcp:x']);
    tabs.forget('alpha/mcp:x');
    tabs.give(3, 'beta');
    tabs.clear();
    expect(tabs.record()).toEqual({ owners: [], current: [], closed: [] });
    expect(changes.map((change) => change.kind)).toEqual(['given', 'given', 'taken', 'forgotten', 'given', 'cleared']);
    // Whoever keeps something per tab (the tab groups) hears which tabs went back.
    expect(changes[3]).toEqual({ kind: 'forgotten', caller: 'alpha/mcp:x', tabIds: [2] });
    expect(changes[5]).toEqual({ kind: 'cleared', tabIds: [3] });
  });

  it('round-trips through its record, and reads nothing malformed', () => {
    const tabs = new TabOwnership();
    tabs.give(1, 'alpha');
    tabs.opened(2, 'beta', true);
    expect(new TabOwnership(tabs.record()).record()).toEqual(tabs.record());
    expect(new TabOwnership({ owners: [['x', 1]] }).record()).toEqual({ owners: [], current: [], closed: [] });
    // A current tab that is not the caller's own is not taken on trust.
    expect(new TabOwnership({ owners: [[1, 'alpha']], current: [['beta', 1]] }).currentOf('beta')).toBeUndefined();
  });
});
