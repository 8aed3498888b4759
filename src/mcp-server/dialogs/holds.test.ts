import { describe, expect, it } from 'vitest';
import { DialogHeld, DialogHolds, readNativeDialogMessage } from './holds';
import { heldText } from './texts';
import { NATIVE_DIALOG_MESSAGE } from '../../page/dialogs/channel';

/** A browser whose tabs answer scripts, or not, as each test says; it counts the checks. */
function probeOf(blocked: Set<number>) {
  const asked: Array<[number, number]> = [];
  return {
    asked,
    probe: {
      answers: async (tabId: number, ms: number) => {
        asked.push([tabId, ms]);
        return !blocked.has(tabId);
      },
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('DialogHolds', () => {
  it('holds a tab whose relay reported a dialog and whose page does not answer', async () => {
    const blocked = new Set([7]);
    const { probe, asked } = probeOf(blocked);
    const holds = new DialogHolds(probe, 250);
    expect(await holds.held(7)).toBeUndefined();
    expect(asked).toEqual([]); // no report, no check
    holds.opened(7, 3, 'confirm');
    expect(await holds.held(7)).toBe('confirm');
    expect(asked).toEqual([[7, 250]]);
    expect(await holds.held(8)).toBeUndefined();
  });

  it('lets a tab go once the dialog closed, the tab closed or its top document changed', async () => {
    const { probe } = probeOf(new Set([1, 2, 3]));
    const holds = new DialogHolds(probe);
    holds.opened(1, 0, 'alert');
    holds.opened(2, 0, 'prompt');
    holds.opened(3, 4, 'confirm');
    holds.closed(1, 0);
    holds.forget(2);
    holds.closed(3, 9); // another frame's dialog closing says nothing about frame 4's
    expect([await holds.held(1), await holds.held(2), await holds.held(3)]).toEqual([undefined, undefined, 'confirm']);
  });

  it('keeps a dialog of the document a late commit names, and drops those of the documents before it', async () => {
    const { probe } = probeOf(new Set([1, 2]));
    const holds = new DialogHolds(probe);
    holds.opened(1, 0, 'confirm', 'new-doc'); // reported before Chrome's commit event came in
    holds.committed(1, 'new-doc');
    holds.opened(2, 0, 'alert', 'old-doc');
    holds.opened(2, 5, 'prompt');
    holds.committed(2, 'new-doc');
    expect([await holds.held(1), await holds.held(2)]).toEqual(['confirm', undefined]);
  });

  it('restores recorded dialogs of tabs it has heard nothing of, and ends a watched call there', async () => {
    const { probe, asked } = probeOf(new Set([1, 2, 3]));
    const holds = new DialogHolds(probe);
    const watched = holds.watch(3);
    holds.closed(2, 0); // heard since the record was written: newer than it
    holds.restore([
      { tabId: 1, frameId: 0, kind: 'prompt', documentId: 'doc-1' },
      { tabId: 2, frameId: 0, kind: 'alert' },
      { tabId: 3, frameId: 0, kind: 'confirm' },
    ]);
    expect([await holds.held(1), await holds.held(2)]).toEqual(['prompt', undefined]);
    await settle();
    expect(watched.signal.aborted).toBe(true);
    expect(watched.signal.reason).toBeInstanceOf(DialogHeld);
    // A record the page proves wrong costs one check and is gone.
    const stale = new DialogHolds(probeOf(new Set()).probe);
    stale.restore([{ tabId: 4, frameId: 0, kind: 'alert' }]);
    expect(await stale.held(4)).toBeUndefined();
    expect(asked.filter(([tab]) => tab === 2)).toEqual([]);
  });

  it('takes the report as a hint: a page that answers is not held, and the report is dropped', async () => {
    const blocked = new Set<number>();
    const { probe, asked } = probeOf(blocked);
    const holds = new DialogHolds(probe);
    holds.opened(5, 0, 'alert'); // a page script can send the same words
    expect(await holds.held(5)).toBeUndefined();
    blocked.add(5);
    expect(await holds.held(5)).toBeUndefined();
    expect(asked).toHaveLength(1);
  });

  it('aborts the calls working in a tab once a dialog holds it, with the reason, and only those', async () => {
    const { probe } = probeOf(new Set([1]));
    const holds = new DialogHolds(probe);
    const here = holds.watch(1);
    const there = holds.watch(2);
    const gone = holds.watch(1);
    gone.dispose();
    holds.opened(1, 0, 'prompt');
    await settle();
    expect(here.signal.aborted).toBe(true);
    expect(here.signal.reason).toBeInstanceOf(DialogHeld);
    expect((here.signal.reason as DialogHeld).message).toBe(heldText('prompt'));
    expect((here.signal.reason as DialogHeld).code).toBe('dialog-open');
    expect(there.signal.aborted).toBe(false);
    expect(gone.signal.aborted).toBe(false);
  });

  it('does not abort a call when the page still answers after the report', async () => {
    const { probe } = probeOf(new Set());
    const holds = new DialogHolds(probe);
    const call = holds.watch(1);
    holds.opened(1, 0, 'alert');
    await settle();
    expect(call.signal.aborted).toBe(false);
  });

  it('does not abort when the dialog closed before the check came back', async () => {
    let release!: (answered: boolean) => void;
    const holds = new DialogHolds({ answers: () => new Promise((resolve) => (release = resolve)) });
    const call = holds.watch(1);
    holds.opened(1, 0, 'alert');
    holds.closed(1, 0);
    release(false);
    await settle();
    expect(call.signal.aborted).toBe(false);
  });
});

describe('readNativeDialogMessage', () => {
  it('reads the relay’s message and nothing else', () => {
    const dialog = { state: 'open', kind: 'confirm' };
    expect(readNativeDialogMessage({ type: NATIVE_DIALOG_MESSAGE, dialog })).toEqual(dialog);
    expect(
      readNativeDialogMessage({ type: NATIVE_DIALOG_MESSAGE, dialog: { state: 'closed', kind: 'alert' } }),
    ).toEqual({ state: 'closed', kind: 'alert' });
    for (const other of [
      null,
      'open',
      { type: 'other', dialog },
      { type: NATIVE_DIALOG_MESSAGE },
      { type: NATIVE_DIALOG_MESSAGE, dialog: { state: 'shut', kind: 'alert' } },
      { type: NATIVE_DIALOG_MESSAGE, dialog: { state: 'open', kind: 'beforeunload' } },
      { type: NATIVE_DIALOG_MESSAGE, dialog: { state: 'open', kind: { toString: () => 'alert' } } },
    ]) {
      expect(readNativeDialogMessage(other)).toBeUndefined();
    }
  });
});
