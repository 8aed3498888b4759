// @vitest-environment jsdom
/**
 * The hook and the relay in one document (jsdom runs both "worlds" in one, which is enough to see
 * the protocol): native dialogs while nothing is armed, the answer for the first dialog of an
 * armed action only, the rest dismissed and recorded, and the beforeunload check and pass.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installDialogHook } from './dialog-hook';
import { ARM_TTL_MS, createDialogRelay, type DialogRelay } from '../dialogs/relay';
import { DIALOG_TEXT_LIMIT, MAX_DIALOG_RECORDS, NATIVE_EVENT, RELAY_KEY, type NativeDialog } from '../dialogs/channel';
import { PageAgent } from '../agent';
import { offerListenerQuery } from '../listener-channel';
import { installListenerRecord } from './listener-record';

type Win = Window & typeof globalThis;

type Stand = ReturnType<typeof vi.fn<(...args: unknown[]) => unknown>>;
let native: { alert: Stand; confirm: Stand; prompt: Stand };
let relay: DialogRelay;
let clock = 0;
/** What the relay passed on about the browser's own dialogs, with `shown` where a stand-in ran. */
let notices: Array<NativeDialog | 'shown'>;

/** A fresh window per test: jsdom's own dialogs are stand-ins that record their calls. */
function freshWindow(): Win {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const win = frame.contentWindow as Win;
  const during = (result: unknown) => () => {
    notices.push('shown');
    return result;
  };
  native = {
    alert: vi.fn<(...args: unknown[]) => unknown>(during(undefined)),
    confirm: vi.fn<(...args: unknown[]) => unknown>(during(true)),
    prompt: vi.fn<(...args: unknown[]) => unknown>(during('typed by the user')),
  };
  Object.assign(win, native);
  installDialogHook(win);
  notices = [];
  held = new Map();
  relay = createDialogRelay(win.document, {
    now: () => clock,
    onNative: (dialog) => notices.push(dialog),
    hold: (token, gone) => held.set(token, gone),
  });
  return win;
}

/** The lines armed relays hold to the panel, by token: calling one is the panel going away. */
let held: Map<string, () => void>;

/**
 * What the page does when an action's own event reaches it: `act` runs inside a click the
 * action dispatches in the isolated world (here, the same window's wrapped prototypes).
 */
function byAction<T>(act: () => T): T {
  let result!: T;
  const button = win.document.createElement('button');
  button.addEventListener('click', () => (result = act()));
  win.document.body.append(button);
  button.click();
  button.remove();
  return result;
}

// Every test starts in a fresh window with its hook and relay, at the same time.
let win: Win;
beforeEach(() => {
  clock = 1_000;
  document.body.replaceChildren();
  win = freshWindow();
});

describe('dialogs in a page', () => {
  it('are the browser’s own while no action runs', () => {
    expect(win.confirm('Delete?')).toBe(true);
    expect(win.prompt('Name?', 'x')).toBe('typed by the user');
    win.alert('Hi');
    expect(native.confirm).toHaveBeenCalledWith('Delete?');
    expect(native.prompt).toHaveBeenCalledWith('Name?', 'x');
    expect(native.alert).toHaveBeenCalledWith('Hi');
  });

  it('are announced as open before the browser shows them and as closed after, even when one throws', () => {
    win.confirm('Delete?');
    expect(notices).toEqual([{ state: 'open', kind: 'confirm' }, 'shown', { state: 'closed', kind: 'confirm' }]);
    notices = [];
    native.alert.mockImplementationOnce(() => {
      throw new Error('dialogs blocked');
    });
    expect(() => win.alert('Hi')).toThrow('dialogs blocked');
    expect(notices).toEqual([
      { state: 'open', kind: 'alert' },
      { state: 'closed', kind: 'alert' },
    ]);
  });

  it('announce nothing when an action answers them, and pass on no malformed notice', () => {
    relay.arm('t1', { accept: true }, { acting: true });
    byAction(() => win.confirm('Really?'));
    win.alert('And this?');
    expect(notices).toEqual([]);
    for (const detail of ['{', JSON.stringify({ state: 'gone', kind: 'alert' }), JSON.stringify({ state: 'open' })]) {
      win.document.dispatchEvent(new win.CustomEvent(NATIVE_EVENT, { detail }));
    }
    win.document.dispatchEvent(new win.CustomEvent(NATIVE_EVENT, { detail: { state: 'open', kind: 'alert' } }));
    expect(notices).toEqual([]);
  });

  it('get the action’s answer, the first one only; the rest are dismissed and all are recorded', () => {
    relay.arm('t1', { accept: true, promptText: 'Q3' }, { acting: true });
    expect(byAction(() => win.prompt('Name?', 'draft'))).toBe('Q3');
    expect(byAction(() => win.confirm('Really?'))).toBe(false);
    expect(byAction(() => win.prompt('Again?'))).toBeNull();
    expect(native.confirm).not.toHaveBeenCalled();
    expect(native.prompt).not.toHaveBeenCalled();
    const at = { url: expect.any(String), attributed: true };
    expect(relay.collect('t1')).toEqual([
      { kind: 'prompt', message: 'Name?', answer: { accept: true, promptText: 'Q3' }, ...at },
      { kind: 'confirm', message: 'Really?', answer: null, ...at },
      { kind: 'prompt', message: 'Again?', answer: null, ...at },
    ]);
    // Collected means disarmed: the user's dialogs are theirs again.
    expect(win.confirm('Mine')).toBe(true);
  });

  it('answer a prompt accepted without text with its default, and alerts with nothing', () => {
    relay.arm('t', { accept: true }, { acting: true });
    expect(byAction(() => win.prompt('Name?', 'draft'))).toBe('draft');
    relay.arm('t2', { accept: true }, { acting: true });
    relay.collect('t');
    expect(byAction(() => win.alert('Saved'))).toBeUndefined();
    expect(native.alert).not.toHaveBeenCalled();
    expect(relay.collect('t2')).toMatchObject([{ kind: 'alert', message: 'Saved' }]);
  });

  it('are dismissed when the action gave no answer', () => {
    relay.arm('t', null, { acting: true });
    expect(byAction(() => win.confirm('Delete?'))).toBe(false);
    expect(byAction(() => win.prompt('Name?'))).toBeNull();
    expect(relay.collect('t')).toHaveLength(2);
  });

  it('cannot be collected with another action’s token, and arming runs out', () => {
    relay.arm('t', null);
    win.confirm('Delete?');
    expect(relay.collect('other')).toEqual([]);
    clock += ARM_TTL_MS + 1;
    expect(win.confirm('Later')).toBe(true);
    expect(native.confirm).toHaveBeenCalledWith('Later');
  });

  it('stay native through a reference saved before the hook ran (a documented limit)', () => {
    const saved = native.confirm;
    relay.arm('t', { accept: true }, { acting: true });
    expect(byAction(() => saved('x'))).toBe(true);
    expect(relay.collect('t')).toEqual([]);
  });

  it('do not show the page what the answer is before a dialog opens', () => {
    const seen: unknown[] = [];
    win.document.addEventListener('tabwright-dialog-reply', (event) => seen.push((event as CustomEvent).detail));
    relay.arm('t', { accept: true, promptText: 'secret' }, { acting: true });
    expect(seen).toEqual([]);
    byAction(() => win.prompt('Name?'));
    expect(seen).toHaveLength(1);
  });

  it('never give an action’s answer to a dialog the action did not cause: a timer’s, another script’s, the person’s', async () => {
    relay.arm('rename', { accept: true, promptText: 'report-final' }, { acting: true });
    // The earlier click's confirm, opened by the page's timer while this action runs.
    expect(win.confirm('Delete the files?')).toBe(false);
    // A second one in the same task is no more the action's than the first.
    expect(win.confirm('Really delete?')).toBe(false);
    // The action's own click opens its prompt, which gets the answer.
    expect(byAction(() => win.prompt('New name?'))).toBe('report-final');
    expect(relay.collect('rename')).toEqual([
      { kind: 'confirm', message: 'Delete the files?', answer: null, url: expect.any(String), attributed: false },
      { kind: 'confirm', message: 'Really delete?', answer: null, url: expect.any(String), attributed: false },
      {
        kind: 'prompt',
        message: 'New name?',
        answer: { accept: true, promptText: 'report-final' },
        url: expect.any(String),
        attributed: true,
      },
    ]);
    expect(native.confirm).not.toHaveBeenCalled();
  });

  it('count promise reactions a handler started as the action’s, and the next task as not', async () => {
    relay.arm('t', { accept: true }, { acting: true });
    const answers: unknown[] = [];
    byAction(() =>
      Promise.resolve()
        .then(() => undefined)
        .then(() => answers.push(win.confirm('After an await?'))),
    );
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    answers.push(win.confirm('From a timer?'));
    expect(answers).toEqual([true, false]);
    expect(relay.collect('t').map((record) => record.attributed)).toEqual([true, false]);
  });

  it('count what a timer the action’s handlers set (or its callback set) asks as the action’s, and an earlier timer’s as not', async () => {
    installListenerRecord(win);
    offerListenerQuery(win.document, win);
    // The offer was a dispatch of the isolated world's own; its mark is down by the next task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const answers: unknown[] = [];
    // An earlier click, done before this action, left a timer behind that asks later.
    relay.arm('earlier', null, { acting: true });
    byAction(() => win.setTimeout(() => answers.push(win.confirm('Left behind by an earlier click?')), 20));
    relay.collect('earlier');
    await new Promise((resolve) => setTimeout(resolve, 0));
    relay.arm('t', { accept: true, promptText: 'Team lunch' }, { acting: true });
    win.setTimeout(() => answers.push(win.confirm('From an earlier timer?')), 0);
    const asked = new Promise((resolve) =>
      byAction(() =>
        win.setTimeout(() => win.setTimeout(() => resolve(answers.push(win.prompt('Event title'))), 0), 0),
      ),
    );
    await asked;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answers).toEqual([false, 'Team lunch', false]);
    expect(relay.collect('t').map((record) => [record.message, record.attributed])).toEqual([
      ['From an earlier timer?', false],
      ['Event title', true],
      ['Left behind by an earlier click?', false],
    ]);
  });

  it('die with the panel’s line: the person’s next dialog is theirs at once', () => {
    relay.arm('edit', { accept: true }, { acting: true });
    expect(held.has('edit')).toBe(true);
    held.get('edit')!(); // the panel closed, or the call ended
    expect(win.confirm('Delete project?')).toBe(true);
    expect(native.confirm).toHaveBeenCalledWith('Delete project?');
    expect(relay.collect('edit')).toEqual([]);
  });

  it('keep one line and one record per arming when the action’s command arms over the panel’s dismissal', () => {
    relay.arm('t', null);
    expect(win.confirm('Before the command?')).toBe(false);
    relay.arm('t', { accept: true }, { acting: true });
    expect(byAction(() => win.confirm('The action’s?'))).toBe(true);
    expect(held.size).toBe(1);
    expect(relay.collect('t').map((record) => record.message)).toEqual(['Before the command?', 'The action’s?']);
  });

  it('quote at most a few dialogs, each cut short, however many a page forges', () => {
    relay.arm('t', null, { acting: true });
    const huge = 'x'.repeat(600_000);
    for (let i = 0; i < 10; i++) {
      win.document.dispatchEvent(
        new win.CustomEvent('tabwright-dialog-ask', { detail: JSON.stringify({ kind: 'confirm', message: huge }) }),
      );
    }
    const records = relay.collect('t');
    expect(records).toHaveLength(MAX_DIALOG_RECORDS);
    expect(records.every((record) => record.message.length === DIALOG_TEXT_LIMIT)).toBe(true);
  });
});

describe('leaving a page', () => {
  const unload = () => {
    const event = new win.Event('beforeunload', { cancelable: true });
    win.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('does not ask without a handler, or with one that lets it go', () => {
    expect(relay.leave('check')).toEqual({ asks: false });
    win.addEventListener('beforeunload', () => undefined);
    expect(relay.leave('check')).toEqual({ asks: false });
  });

  it('asks for preventDefault, a returnValue, and an onbeforeunload that returns text', () => {
    win.addEventListener('beforeunload', (event) => event.preventDefault());
    expect(relay.leave('check')).toEqual({ asks: true });

    win = freshWindow();
    win.addEventListener('beforeunload', (event) => {
      (event as BeforeUnloadEvent).returnValue = 'Unsaved';
    });
    expect(relay.leave('check')).toEqual({ asks: true });

    win = freshWindow();
    const handler = () => 'You have unsaved notes';
    win.onbeforeunload = handler;
    expect(relay.leave('check')).toEqual({ asks: true });
    expect(win.onbeforeunload).toBe(handler);
  });

  it('lets one leave pass without the page’s handlers, once allowed, until forbidden again', () => {
    const calls: string[] = [];
    win.addEventListener('beforeunload', (event) => {
      calls.push('handler');
      event.preventDefault();
    });
    relay.leave('allow');
    expect(unload()).toBe(false);
    expect(calls).toEqual([]);
    expect(unload()).toBe(true);
    relay.leave('allow');
    relay.leave('forbid');
    expect(unload()).toBe(true);
  });

  it('has no answer where no hook runs', () => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    expect(createDialogRelay(frame.contentDocument!).leave('check')).toBeUndefined();
  });
});

describe('an action command arming its own frame', () => {
  it('arms its own frame as the acting one: its events’ dialogs get the answer, a timer’s does not', async () => {
    (win as unknown as Record<string, unknown>)[RELAY_KEY] = relay;
    const agent = new PageAgent(win.document);
    // The page asks from a timer while the action waits for it to settle: not the action's doing.
    const settle = { quietBeats: 2, capMs: 1_000 };
    win.setTimeout(() => win.confirm('Discard the draft?'), 5);
    const armed = await agent.handle({
      op: 'settle',
      settle,
      dialogs: { token: 't7', answer: { accept: true } },
    });
    expect(armed).toMatchObject({ ok: true });
    expect(native.confirm).not.toHaveBeenCalled();
    // What the action's own dispatch opens while it is armed gets the answer.
    expect(byAction(() => win.confirm('Save first?'))).toBe(true);
    expect(relay.collect('t7')).toEqual([
      { kind: 'confirm', message: 'Discard the draft?', answer: null, url: expect.any(String), attributed: false },
      { kind: 'confirm', message: 'Save first?', answer: { accept: true }, url: expect.any(String), attributed: true },
    ]);
    // Without arming, the same page's dialog is the user's.
    win.setTimeout(() => win.confirm('Discard the draft?'), 5);
    await agent.handle({ op: 'settle', settle });
    expect(native.confirm).toHaveBeenCalledTimes(1);
  });

  it('does not run an action that was sent before one of the user’s dialogs opened', async () => {
    (win as unknown as Record<string, unknown>)[RELAY_KEY] = relay;
    const agent = new PageAgent(win.document);
    const settle = { quietBeats: 1, capMs: 200 };
    clock = 2_000;
    win.confirm('Leave the meeting?'); // the user's, shown by the browser
    // Sent at 1 999, the action waited behind that dialog: the panel has given up on it.
    const late = await agent.handle({ op: 'settle', settle, sentAt: 1_999 });
    expect(late).toMatchObject({ ok: false, code: 'dialog-open' });
    expect((late as { error: string }).error).toContain('was not done');
    // One sent after the dialog opened (the user answered it since) runs.
    expect(await agent.handle({ op: 'settle', settle, sentAt: 2_001 })).toMatchObject({ ok: true });
    expect(relay.nativeSince(2_000)).toBe(true);
    expect(relay.nativeSince(2_001)).toBe(false);
  });

  it('counts no dialog as the action’s because the agent asked the page record a question meanwhile', async () => {
    installListenerRecord(win);
    offerListenerQuery(win.document, win);
    await new Promise((resolve) => setTimeout(resolve, 0));
    (win as unknown as Record<string, unknown>)[RELAY_KEY] = relay;
    const agent = new PageAgent(win.document);
    const button = win.document.createElement('button');
    button.textContent = 'Save';
    button.addEventListener('click', () => undefined);
    win.document.body.append(button);
    // The read after an action runs while the action is armed; the page's own promise work asks meanwhile.
    relay.arm('t', { accept: true }, { acting: true });
    const answers: unknown[] = [];
    void Promise.resolve().then(() => answers.push(win.confirm('Keep polling?')));
    const read = await agent.handle({ op: 'snapshot', frameId: 0, refBase: 1 });
    expect(read).toMatchObject({ ok: true });
    expect(answers).toEqual([false]);
    expect(relay.collect('t').map((record) => record.attributed)).toEqual([false]);
  });

  it('refuses an arming that is not a token and an answer', async () => {
    const agent = new PageAgent(win.document);
    for (const dialogs of [
      { token: '' },
      { token: 't', answer: { accept: 'yes' } },
      { token: 't', answer: null },
      {},
    ]) {
      expect(await agent.handle({ op: 'settle', dialogs })).toMatchObject({ ok: false });
    }
  });
});
