import { callerTabs } from './caller-tabs';
import { describe, expect, it } from 'vitest';
import { FRAME_GONE_TEXT } from '../page/error-codes';
import type { PageCommand } from '../page/protocol';
import { elementTarget, performAction, reportNewPage, targetLabel } from './action-flow';
import { PageCommandError, type BrowserPort, type NavigationWatch, type TabInfo } from './browser-port';
import { NavigationTracker } from './navigation-tracker';
import { PageGuard } from './page-guard';
import { ResponseBuilder } from './response';
import { MemoryRefCounters, SnapshotService } from './snapshot-service';
import type { PageToolContext } from './tool';

const TAB: TabInfo = { id: 7, windowId: 1, url: 'http://127.0.0.1/a', title: 'A', active: true, loading: false };

interface PageState {
  url: string;
  documentId: string;
  lines: string[];
}

/** A page whose commands are scripted: snapshots read `state`, actions run `act`. */
function fakeContext(options: {
  state: PageState;
  act(command: PageCommand, watch: NavigationTracker): Promise<unknown>;
  refused?: (url: string) => string | undefined;
  signal?: AbortSignal;
}) {
  const sent: PageCommand[] = [];
  const watches: NavigationTracker[] = [];
  const reply = async (command: PageCommand, runOptions: { signal?: AbortSignal }): Promise<unknown> => {
    if (command.op === 'snapshot') {
      const { url, documentId, lines } = options.state;
      return { title: 'T', url, lines, frames: [], nextRef: 50, documentId };
    }
    if (command.op === 'cancelWait' || command.op === 'settle') return { cancelled: true, description: '' };
    // As the real port does, stop waiting when the run's signal aborts.
    const signal = runOptions.signal;
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      options.act(command, watches.at(-1)!).then(resolve, reject);
    });
  };
  const page = {
    async send(_tabId: number, command: PageCommand, runOptions: { signal?: AbortSignal } = {}) {
      sent.push(command);
      const value = await reply(command, runOptions);
      return { value, url: options.state.url, documentId: options.state.documentId };
    },
    async frames() {
      return [{ frameId: 0, parentFrameId: -1, url: options.state.url }];
    },
  };
  const browser = {
    page,
    async getTab() {
      return { ...TAB, url: options.state.url };
    },
    watchNavigation(): NavigationWatch {
      const watch = Object.assign(new NavigationTracker(), { dispose() {} });
      watches.push(watch);
      return watch;
    },
  } as unknown as BrowserPort;
  const snapshots = new SnapshotService(new MemoryRefCounters());
  const guard = new PageGuard(page as never, async (url) => options.refused?.(url));
  const ctx: PageToolContext = {
    signal: options.signal ?? new AbortController().signal,
    tab: TAB,
    windowId: 1,
    browser,
    page: guard,
    readPage: (tab) => snapshots.capture(guard, tab),
    snapshots,
    checkDestination: async (url) => options.refused?.(url),
    isTabVisible: async () => true,
    leave: async () => ({ signal: new AbortController().signal, done: async () => undefined }),
    callerTabs: followingTabs(browser),
  } as PageToolContext;
  return { ctx, sent, snapshots };
}

const textOf = (response: ResponseBuilder) =>
  response
    .build()
    .content.map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n');

/** A page big enough that a one-line change reads better as a diff than as the whole page. */
const FILLER = Array.from({ length: 20 }, (_, i) => `- listitem "Row ${i}"`);
const BEFORE = ['- button "Count" [e1]', '- status "0"', '- link "Next" [e2]', ...FILLER];

describe('performAction', () => {
  it('answers with the action line and the diff against the previous snapshot of the document', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx, sent } = fakeContext({
      state,
      async act() {
        state.lines = ['- button "Count" [e1]', '- status "1"', '- link "Next" [e2]', ...FILLER];
        return { description: 'Clicked <button> "Count"', settled: { reason: 'quiet', ms: 120 } };
      },
    });
    await ctx.snapshots.capture(ctx.page, TAB);
    const response = new ResponseBuilder();
    await performAction(ctx, response, { op: 'click', target: { ref: 'e1' } }, { fallbackLine: 'Clicked e1' });
    const text = textOf(response);
    expect(text).toContain('Clicked <button> "Count"');
    expect(text).toContain('~ - status "1" (was: "0")');
    expect(text).not.toContain('# snapshot —');
    const action = sent.find((command) => command.op === 'click') as { actionId?: string };
    expect(action.actionId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('shows the whole page when there was no earlier snapshot', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx } = fakeContext({ state, act: async () => ({ description: 'Clicked <a> "Next"' }) });
    const response = new ResponseBuilder();
    await performAction(ctx, response, { op: 'click', target: { ref: 'e2' } }, { fallbackLine: 'x' });
    expect(textOf(response)).toContain('# snapshot — T');
  });

  it('treats a document that vanished under the command as a navigation, and shows the new page', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx } = fakeContext({
      state,
      async act(_command, watch) {
        watch.record({ kind: 'before', url: 'http://127.0.0.1/b' });
        setTimeout(() => {
          Object.assign(state, { url: 'http://127.0.0.1/b', documentId: 'doc-2', lines: ['- heading "B" [level=1]'] });
          watch.record({ kind: 'committed', url: 'http://127.0.0.1/b' });
          watch.record({ kind: 'completed', url: 'http://127.0.0.1/b' });
        }, 10);
        throw new PageCommandError('The frame went away (the page navigated). Call snapshot again.', 'frame-gone');
      },
    });
    await ctx.snapshots.capture(ctx.page, TAB);
    const response = new ResponseBuilder();
    await performAction(ctx, response, { op: 'click', target: { ref: 'e2' } }, { fallbackLine: 'Clicked link "Next"' });
    const text = textOf(response);
    expect(response.isError).toBe(false);
    expect(text).toContain('Clicked link "Next"; the page changed to http://127.0.0.1/b');
    expect(text).toContain('- heading "B" [level=1]');
  });

  it('does not read a page on a site the gates refuse, after a navigation took the tab there', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx, sent } = fakeContext({
      state,
      refused: (url) => (url.includes('evil') ? 'Refused: http://evil.test is not an allowed site.' : undefined),
      async act(_command, watch) {
        watch.record({ kind: 'before', url: 'http://evil.test/' });
        Object.assign(state, { url: 'http://evil.test/', documentId: 'doc-9', lines: ['- text "secret"'] });
        watch.record({ kind: 'completed', url: 'http://evil.test/' });
        return { description: 'Clicked <a> "Next"', navigating: true };
      },
    });
    const response = new ResponseBuilder();
    await performAction(ctx, response, { op: 'click', target: { ref: 'e2' } }, { fallbackLine: 'x' });
    const text = textOf(response);
    expect(text).toContain('may not read');
    expect(text).toContain('not an allowed site');
    expect(text).not.toContain('secret');
    expect(sent.filter((command) => command.op === 'snapshot')).toHaveLength(0);
  });

  it('passes refusals from the page on as errors', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx } = fakeContext({
      state,
      act: async () => {
        throw new PageCommandError('Refused to click <button> "Buy": it is disabled', 'not-actionable:enabled');
      },
    });
    await expect(
      performAction(ctx, new ResponseBuilder(), { op: 'click', target: { ref: 'e1' } }, { fallbackLine: 'x' }),
    ).rejects.toThrow(/it is disabled/);
  });

  it('cancels the page-side action by id when the call is aborted', async () => {
    const controller = new AbortController();
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx, sent } = fakeContext({
      state,
      signal: controller.signal,
      act: () =>
        new Promise((_, reject) => {
          setTimeout(() => controller.abort(new Error('stop')), 5);
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason));
        }),
    });
    await expect(
      performAction(ctx, new ResponseBuilder(), { op: 'click', target: { ref: 'e1' } }, { fallbackLine: 'x' }),
    ).rejects.toThrow('stop');
    const click = sent.find((command) => command.op === 'click') as { actionId: string };
    expect(sent).toContainEqual({ op: 'cancelWait', waitId: click.actionId });
  });
});

it('gives up on a page that stops answering (a dialog blocks it) and says why', async () => {
  const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
  const { ctx, sent } = fakeContext({ state, act: () => new Promise(() => {}) });
  const run = performAction(
    ctx,
    new ResponseBuilder(),
    { op: 'click', target: { ref: 'e1' } },
    { fallbackLine: 'x', deadlineMs: 30 },
  );
  await expect(run).rejects.toThrow(/did not answer within 0 s\. It may be showing a dialog/);
  expect(sent.some((command) => command.op === 'cancelWait')).toBe(true);
});

describe('reportNewPage', () => {
  /** A new page that sends itself to `to` while its first snapshot is being read. */
  function movingPage(to: string) {
    const state = { url: 'http://127.0.0.1/mover', documentId: 'doc-1', lines: ['- heading "Mover" [level=1]'] };
    const { ctx } = fakeContext({
      state,
      act: async () => ({}),
      refused: (url) =>
        url.startsWith('http://secret.example') ? 'secret.example is not an allowed site.' : undefined,
    });
    const read = ctx.readPage;
    let reads = 0;
    ctx.readPage = async (tab) => {
      if (reads++ > 0) return read(tab);
      Object.assign(state, { url: to, documentId: 'doc-2', lines: ['- heading "Where it went" [level=1]'] });
      throw new PageCommandError(FRAME_GONE_TEXT, 'frame-gone');
    };
    return { ctx, reads: () => reads };
  }

  it('says a page that moved on to a site the gates refuse is not shown, and shows none of it', async () => {
    const { ctx, reads } = movingPage('http://secret.example/s');
    const response = new ResponseBuilder();
    await reportNewPage(
      ctx,
      response,
      { ...TAB, url: 'http://127.0.0.1/mover' },
      'Navigated to http://127.0.0.1/mover',
    );
    const text = textOf(response);
    expect(reads()).toBe(2);
    expect(text).toContain('may not read');
    expect(text).not.toContain('Where it went');
  });

  it('shows the allowed page a new page moved on to', async () => {
    const { ctx } = movingPage('http://127.0.0.1/landed');
    const response = new ResponseBuilder();
    await reportNewPage(
      ctx,
      response,
      { ...TAB, url: 'http://127.0.0.1/mover' },
      'Navigated to http://127.0.0.1/mover',
    );
    expect(response.isError).toBe(false);
    expect(textOf(response)).toContain('- heading "Where it went" [level=1]');
  });
});

describe('elementTarget and targetLabel', () => {
  it('reads refs with their frame, selectors, and says what is missing', () => {
    expect(elementTarget({ ref: 'e12' })).toEqual({ target: { ref: 'e12' }, frameId: 0 });
    expect(elementTarget({ ref: 'f3e7' })).toEqual({ target: { ref: 'f3e7' }, frameId: 3 });
    expect(elementTarget({ selector: '#go' })).toEqual({ target: { selector: '#go' }, frameId: 0 });
    expect(elementTarget({ ref: 'button' })).toMatch(/not a ref/);
    expect(elementTarget({}, 'field')).toMatch(/Say which field/);
  });

  it('names an element from the last snapshot when the page could not', async () => {
    const state = { url: TAB.url!, documentId: 'doc-1', lines: BEFORE };
    const { ctx } = fakeContext({ state, act: async () => ({}) });
    await ctx.snapshots.capture(ctx.page, TAB);
    expect(targetLabel(ctx, { ref: 'e2' })).toBe('link "Next" [e2]');
    expect(targetLabel(ctx, { selector: 'a.next' })).toBe('the element matching a.next');
  });
});

/** The tabs of a caller that works in whatever tab is in front, as tools did before tabs were owned. */
function followingTabs(browser: Parameters<typeof callerTabs>[0]['browser']) {
  return callerTabs({
    caller: { id: 'agent', label: 'Agent' },
    ownership: undefined,
    follows: true,
    browser,
    windowId: 1,
    actMode: () => true,
  });
}
