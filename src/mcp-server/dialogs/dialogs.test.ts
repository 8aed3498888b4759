/**
 * The `dialog` argument through the gates and the action flow, with a scripted page: act mode, the
 * confirmation that shows the answer, the answer going only to a frame the gates allow, what the
 * result quotes, the audit entry, and leaving a page that asks first.
 */
import { describe, expect, it } from 'vitest';
import type { DialogAnswer, DialogPort, FrameDialogs, LeaveMode } from './port';
import { browserTools } from '../tools';
import { inputJsonSchema } from '../registry';
import { fakeBrowser } from '../gates/fake-browser';
import { gatedServer, textOf } from '../tools/gated-server-fixture';

const SITE = 'https://app.example';
const OTHER = 'https://ads.example';

/** A tab's relays as a script: what each frame's dialogs will have been when collected. */
function fakeDialogs(opened: FrameDialogs[] = [], asks = false) {
  /** The tabs whose every frame was armed to dismiss, in order. */
  const armed: number[] = [];
  const leaves: LeaveMode[] = [];
  const port: DialogPort = {
    async arm(tabId) {
      armed.push(tabId);
    },
    async collect() {
      return opened;
    },
    async leave(_tabId, mode) {
      leaves.push(mode);
      return [{ frameId: 0, asks: mode === 'check' && asks }];
    },
  };
  return { port, armed, leaves };
}

function setUp(options: { act?: boolean; dialogs: DialogPort; frames?: { frameId: number; url: string }[] }) {
  const browser = fakeBrowser([
    { id: 1, windowId: 1, url: `${SITE}/work`, title: 'Work', active: true, loading: false },
  ]);
  if (options.frames) {
    browser.frameList = options.frames.map((f) => ({
      ...f,
      parentFrameId: f.frameId ? 0 : -1,
      documentId: `d${f.frameId}`,
    }));
  }
  const server = gatedServer({ act: options.act, dialogs: options.dialogs, browser });
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await server.call(tool, args);
    return { result, text: textOf(result) };
  };
  const { audit, asked } = server;
  return { call, audit, asked, browser };
}

/** What the action command (the op given) carried to arm its own frame. */
function armingOf(browser: { sent: Array<{ op: string }> }, op: string) {
  return (browser.sent.find((command) => command.op === op) as { dialogs?: unknown } | undefined)?.dialogs;
}

const confirmRecord = (url: string, answer: DialogAnswer | null) => ({
  kind: 'confirm' as const,
  message: 'Delete the report?',
  answer,
  url,
});

describe('the dialog argument', () => {
  it('is refused with the call when act mode is off; nothing is armed', async () => {
    const dialogs = fakeDialogs();
    const { call, asked, browser } = setUp({ act: false, dialogs: dialogs.port });
    const { result, text } = await call('click', { ref: 'e1', dialog: { accept: true } });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/act mode/i);
    expect(asked).toHaveLength(0);
    expect(dialogs.armed).toEqual([]);
    expect(browser.sent).toEqual([]);
  });

  it('is shown to the user in the confirmation and the audit entry, then answers in the action frame', async () => {
    const dialogs = fakeDialogs([{ frameId: 0, records: [confirmRecord(`${SITE}/work`, { accept: true })] }]);
    const { call, asked, audit, browser } = setUp({ dialogs: dialogs.port });
    const { result, text } = await call('click', { ref: 'e1', dialog: { accept: true } });
    expect(result.isError, text).toBeFalsy();
    expect(asked[0]!.args).toMatchObject({ ref: 'e1', dialog: { accept: true } });
    expect(audit.at(-1)!.args).toMatchObject({ dialog: { accept: true } });
    // One frame: the click arms it itself, with the answer; nothing else is armed.
    expect(dialogs.armed).toEqual([]);
    expect(armingOf(browser, 'click')).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{24}$/),
      answer: { accept: true },
    });
    expect(text).toContain(
      'The page opened a confirm dialog during the action; it was answered as the call said: accepted (OK)',
    );
    expect(text).toContain(`<untrusted origin="${SITE}">\nDelete the report?\n</untrusted>`);
  });

  it('is taken by every page action that writes, and by every tool that leaves a page', () => {
    const taking = browserTools
      .filter((tool) => Object.keys(inputJsonSchema(tool.input).properties ?? {}).includes('dialog'))
      .map((tool) => tool.name)
      .sort();
    expect(taking).toEqual(
      [
        'click',
        'close_tab',
        'drag',
        'fill_form',
        'history',
        'navigate',
        'press_key',
        'reload',
        'select_option',
        'type',
        'upload_file',
      ].sort(),
    );
    for (const name of taking) expect(browserTools.find((t) => t.name === name)!.effect).toBe('write');
  });

  it('without an answer, reports the dismissed dialog and how to answer it', async () => {
    const dialogs = fakeDialogs([{ frameId: 0, records: [confirmRecord(`${SITE}/work`, null)] }]);
    const { call, browser } = setUp({ dialogs: dialogs.port });
    const { result, text } = await call('click', { ref: 'e1' });
    expect(result.isError).toBeFalsy();
    expect(armingOf(browser, 'click')).toEqual({ token: expect.any(String) });
    expect(text).toContain('it was dismissed (Cancel), because the call gave no `dialog` answer');
    expect(text).toContain('Delete the report?');
    expect(text).toContain('repeat the action with `dialog`');
  });

  it('never gives the answer to a frame the gates refuse, nor quotes its dialog', async () => {
    const dialogs = fakeDialogs([{ frameId: 3, records: [confirmRecord(`${OTHER}/frame`, null)] }]);
    const frames = [
      { frameId: 0, url: `${SITE}/work` },
      { frameId: 3, url: `${OTHER}/frame` },
    ];
    const { call, browser } = setUp({ dialogs: dialogs.port, frames });
    // A ref in the refused frame: the guard refuses the action, and the frame never got the answer.
    const refused = await call('click', { ref: 'f3e1', dialog: { accept: true, promptText: 'secret' } });
    expect(refused.result.isError).toBe(true);
    expect(dialogs.armed).toEqual([1]);
    expect(armingOf(browser, 'click')).toBeUndefined();
    const { text } = await call('click', { ref: 'e1', dialog: { accept: true } });
    // Two frames: every frame is armed to dismiss first, then the click arms its own with the answer.
    expect(dialogs.armed).toEqual([1, 1]);
    expect(armingOf(browser, 'click')).toEqual({ token: expect.any(String), answer: { accept: true } });
    expect(text).toContain('A frame Tabwright may not read opened a confirm dialog during the action');
    expect(text).not.toContain('Delete the report?');
  });

  it('quotes an about:blank frame by the page that made it', async () => {
    const dialogs = fakeDialogs([{ frameId: 2, records: [confirmRecord('about:blank', null)] }]);
    const frames = [
      { frameId: 0, url: `${SITE}/work` },
      { frameId: 2, url: 'about:blank' },
    ];
    const { text } = await setUp({ dialogs: dialogs.port, frames }).call('click', { ref: 'e1' });
    expect(text).toContain(`<untrusted origin="${SITE}">\nDelete the report?`);
  });

  it('is never passed on by a read: a hover dismisses whatever it opens', async () => {
    const dialogs = fakeDialogs();
    const { call, browser } = setUp({ dialogs: dialogs.port });
    await call('hover', { ref: 'e1', dialog: { accept: true } });
    expect(armingOf(browser, 'hover')).toEqual({ token: expect.any(String) });
  });

  it('is checked as an object with a boolean accept', async () => {
    const { call } = setUp({ dialogs: fakeDialogs().port });
    for (const dialog of [true, { accept: 'yes' }, { accept: true, extra: 1 }, { accept: true, promptText: 3 }]) {
      const { result } = await call('click', { ref: 'e1', dialog });
      expect(result.isError, JSON.stringify(dialog)).toBe(true);
    }
  });
});

describe('leaving a page that asks first', () => {
  it('refuses navigate, reload, history and close_tab without an answer, doing nothing', async () => {
    const dialogs = fakeDialogs([], true);
    const { call, browser } = setUp({ dialogs: dialogs.port });
    for (const [tool, args] of [
      ['navigate', { url: `${SITE}/next` }],
      ['reload', {}],
      ['history', { direction: 'back' }],
      ['close_tab', { tabId: 1 }],
      ['navigate', { url: `${SITE}/next`, dialog: { accept: false } }],
    ] as const) {
      const { result, text } = await call(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(text).toContain('The page asks before leaving');
    }
    expect(browser.effects).toEqual([]);
    expect(dialogs.leaves.every((mode) => mode === 'check')).toBe(true);
  });

  it('lets the leave through when told to accept, and restores the prompt afterwards', async () => {
    const dialogs = fakeDialogs([], true);
    const { call, browser } = setUp({ dialogs: dialogs.port });
    const { result } = await call('navigate', { url: `${SITE}/next`, dialog: { accept: true } });
    expect(result.isError).toBeFalsy();
    expect(browser.effects).toContain(`navigate:${SITE}/next`);
    expect(dialogs.leaves).toEqual(['check', 'allow', 'forbid']);
  });

  it('goes ahead without asking anything when no handler would prompt', async () => {
    const dialogs = fakeDialogs([], false);
    const { call, browser } = setUp({ dialogs: dialogs.port });
    expect((await call('reload', {})).result.isError).toBeFalsy();
    expect(browser.effects).toContain('reload');
    expect(dialogs.leaves).toEqual(['check']);
  });
});
