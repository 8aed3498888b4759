import { describe, expect, it } from 'vitest';
import { MAX_FRAMES_PER_TAB, OpenDialogs, readOpenDialogRecords } from './open-dialogs';

describe('OpenDialogs', () => {
  it('keeps a dialog per tab and frame until it closes, the tab goes or another document commits', () => {
    const dialogs = new OpenDialogs();
    dialogs.opened(1, 0, 'alert', 'doc-a');
    dialogs.opened(1, 4, 'confirm');
    dialogs.opened(2, 0, 'prompt', 'doc-b');
    dialogs.opened(3, 0, 'confirm', 'doc-c');
    dialogs.closed(1, 0);
    dialogs.forget(2);
    dialogs.committed(3, 'doc-c'); // its own document: kept
    expect(dialogs.records()).toEqual([
      { tabId: 1, frameId: 4, kind: 'confirm' },
      { tabId: 3, frameId: 0, kind: 'confirm', documentId: 'doc-c' },
    ]);
    dialogs.committed(3, 'doc-d');
    dialogs.committed(1, undefined);
    expect(dialogs.records()).toEqual([]);
    expect(dialogs.kindIn(1)).toBeUndefined();
  });

  it('round-trips through its records, however many tabs hold a dialog', () => {
    const dialogs = new OpenDialogs();
    for (let tab = 0; tab < 100; tab++) dialogs.opened(tab, 0, 'alert', `doc-${tab}`);
    const records = dialogs.records();
    expect(records).toHaveLength(100);
    expect(new OpenDialogs(records).records()).toEqual(records);
  });

  it('lets a tab flooding reports push out only its own older frames, never its top frame or another tab', () => {
    const dialogs = new OpenDialogs();
    dialogs.opened(1, 0, 'confirm', 'real'); // the person's real dialog in another tab
    dialogs.opened(2, 0, 'alert', 'attacker-top');
    for (let frame = 1; frame <= 72; frame++) dialogs.opened(2, frame, 'confirm', `forged-${frame}`);
    const records = dialogs.records();
    expect(records).toContainEqual({ tabId: 1, frameId: 0, kind: 'confirm', documentId: 'real' });
    expect(records).toContainEqual({ tabId: 2, frameId: 0, kind: 'alert', documentId: 'attacker-top' });
    expect(records.filter((record) => record.tabId === 2)).toHaveLength(MAX_FRAMES_PER_TAB);
    expect(records.at(-1)).toEqual({ tabId: 2, frameId: 72, kind: 'confirm', documentId: 'forged-72' });
    expect(dialogs.kindIn(1)).toBe('confirm');
  });

  it('reads back only well-formed records from storage', () => {
    const good = { tabId: 5, frameId: 0, kind: 'confirm', documentId: 'D' };
    expect(readOpenDialogRecords(undefined)).toEqual([]);
    expect(readOpenDialogRecords({ tabId: 5 })).toEqual([]);
    expect(
      readOpenDialogRecords([
        good,
        { tabId: 5, frameId: -1, kind: 'confirm' },
        { tabId: '5', frameId: 0, kind: 'alert' },
        { tabId: 6, frameId: 0, kind: 'beforeunload' },
        null,
        { tabId: 7, frameId: 2, kind: 'alert', extra: true },
      ]),
    ).toEqual([good, { tabId: 7, frameId: 2, kind: 'alert' }]);
  });
});
