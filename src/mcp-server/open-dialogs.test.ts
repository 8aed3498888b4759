import { describe, expect, it } from 'vitest';
import { MAX_RECORDS, OpenDialogs, readOpenDialogRecords } from './open-dialogs';

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

  it('round-trips through its records and keeps only the newest when there are too many', () => {
    const dialogs = new OpenDialogs();
    for (let tab = 0; tab < MAX_RECORDS + 5; tab++) dialogs.opened(tab, 0, 'alert', `doc-${tab}`);
    dialogs.opened(0, 0, 'prompt', 'doc-0'); // reported again: now the newest
    const records = dialogs.records();
    expect(records).toHaveLength(MAX_RECORDS);
    expect(records.at(-1)).toEqual({ tabId: 0, frameId: 0, kind: 'prompt', documentId: 'doc-0' });
    expect(records[0]!.tabId).toBe(6);
    expect(new OpenDialogs(records).records()).toEqual(records);
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
