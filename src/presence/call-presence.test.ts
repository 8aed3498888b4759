import { describe, expect, it } from 'vitest';
import type { PagePort, TabInfo } from '../mcp-server/browser-port';
import type { ActiveCall } from '../mcp-server/call-activity';
import { CallPresence, type OutlinePort } from './call-presence';
import { colourFor, OUTLINE_COLOURS } from './colours';

const tab = (id: number, url = 'https://app.example/'): TabInfo => ({
  id,
  windowId: 1,
  url,
  title: 't',
  active: true,
  loading: false,
});

function setUp(options: { outlineOn?: () => boolean; front?: TabInfo; showFails?: boolean } = {}) {
  const log: string[] = [];
  const outline: OutlinePort = {
    async show(page, tabId, label, colour) {
      expect(page).toBe(callPage);
      log.push(`show ${tabId} ${label} ${colour}`);
      if (options.showFails) throw new Error('Cannot access a chrome:// URL');
    },
    async hide(tabId) {
      log.push(`hide ${tabId}`);
    },
  };
  const errors: unknown[] = [];
  const presence = new CallPresence({
    groups: { join: async (agent, tabId) => void log.push(`join ${agent.name} ${tabId}`) },
    outline,
    outlineOn: options.outlineOn ?? (() => true),
    label: (name) => `${name} is working here`,
    activeTab: async () => options.front,
    onError: (error) => errors.push(error),
  });
  return { log, errors, presence };
}

/** The call's page port, which the outline must be shown through. */
const callPage: PagePort = {
  run: async () => {
    throw new Error('the fake outline draws nothing');
  },
  frames: async () => [],
  readableFrames: async () => [],
};

function call(overrides: Partial<ActiveCall> = {}): ActiveCall {
  return {
    tool: 'click',
    write: true,
    target: 'page',
    tab: tab(1),
    follows: true,
    windowId: 1,
    signal: new AbortController().signal,
    checkDestination: async (url) => (url.startsWith('https://app.example') ? undefined : 'Refused: not allowed'),
    page: callPage,
    ...overrides,
  };
}

/** An outline that goes up only when `showInPage` is called. */
function slowOutline() {
  const log: string[] = [];
  let showInPage!: () => void;
  const outline: OutlinePort = {
    show: () => new Promise<void>((resolve) => (showInPage = () => (log.push('shown'), resolve()))),
    hide: async () => void log.push('hide'),
  };
  const presence = new CallPresence({
    groups: { join: async () => undefined },
    outline,
    outlineOn: () => true,
    label: (name) => name,
    activeTab: async () => undefined,
  });
  return { log, presence, showInPage: () => showInPage() };
}

const ada = { id: 'ada', name: 'Ada' };
const bob = { id: 'bob', name: 'Bob' };

describe('CallPresence', () => {
  it('outlines the page in the agent’s colour for exactly as long as a write action runs, and groups its tab', async () => {
    const { log, presence } = setUp();
    await presence.activityFor(() => ada).around(call(), async () => void log.push('work'));
    expect(log).toEqual([
      'join Ada 1',
      `show 1 Ada is working here ${OUTLINE_COLOURS[colourFor('ada')]}`,
      'work',
      'hide 1',
    ]);
  });

  it('lets the work prepare while the outline goes up, tells it when the outline is there, and hides it after', async () => {
    const { log, presence, showInPage } = slowOutline();
    let finished = false;
    const running = presence
      .activityFor(() => ada)
      .around(call(), async (shown) => {
        log.push('preparing');
        await shown;
        log.push('acting');
      });
    void running.then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(['preparing']);
    expect(finished).toBe(false);
    showInPage();
    await running;
    expect(log).toEqual(['preparing', 'shown', 'acting', 'hide']);
  });

  it('takes the outline down while the answer is read once the action is done in the page, and only once', async () => {
    const { log, presence } = setUp();
    await presence
      .activityFor(() => ada)
      .around(call(), async (shown, acted) => {
        await shown;
        log.push('acting');
        acted();
        acted();
        // The hide was asked for before the answer is read, not after the work ends.
        await new Promise((resolve) => setTimeout(resolve, 0));
        log.push('reading the answer');
      });
    expect(log.slice(2)).toEqual(['acting', 'hide 1', 'reading the answer']);
  });

  it('hides the outline only after it went up, when the work ended first', async () => {
    const { log, presence, showInPage } = slowOutline();
    const running = presence.activityFor(() => ada).around(call(), () => Promise.reject(new Error('stale ref')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual([]);
    showInPage();
    await expect(running).rejects.toThrow('stale ref');
    expect(log).toEqual(['shown', 'hide']);
  });

  it('removes the outline when the action fails or is cancelled', async () => {
    const { log, presence } = setUp();
    const activity = presence.activityFor(() => ada);
    await expect(activity.around(call(), () => Promise.reject(new Error('stale ref')))).rejects.toThrow('stale ref');
    const controller = new AbortController();
    const cancelled = activity.around(call({ signal: controller.signal }), async () => {
      controller.abort();
      throw new Error('cancelled');
    });
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(log.filter((line) => line.startsWith('hide'))).toEqual(['hide 1', 'hide 1']);
  });

  it('shows no outline for reads, or when turned off, but still groups the tab', async () => {
    let on = true;
    const { log, presence } = setUp({ outlineOn: () => on });
    const activity = presence.activityFor(() => ada);
    await activity.around(call({ tool: 'snapshot', write: false }), async () => {});
    on = false;
    await activity.around(call(), async () => {});
    expect(log).toEqual(['join Ada 1', 'join Ada 1']);
  });

  it('keeps one outline while calls overlap in a tab, naming whoever still acts, and removes it after the last', async () => {
    const { log, presence } = setUp();
    let finishAda!: () => void;
    const adaCall = presence.activityFor(() => ada).around(call(), () => new Promise<void>((r) => (finishAda = r)));
    await Promise.resolve();
    let finishBob!: () => void;
    const bobCall = presence.activityFor(() => bob).around(call(), () => new Promise<void>((r) => (finishBob = r)));
    await new Promise((r) => setTimeout(r, 0));
    finishBob();
    await bobCall;
    expect(log.filter((l) => l.startsWith('hide'))).toEqual([]);
    expect(log.filter((l) => l.startsWith('show')).at(-1)).toMatch(/^show 1 Ada is working here/);
    finishAda();
    await adaCall;
    expect(log.filter((l) => l.startsWith('hide'))).toEqual(['hide 1']);
  });

  it('lets the action run when the page cannot show an outline, and says why', async () => {
    const { log, errors, presence } = setUp({ showFails: true });
    await presence.activityFor(() => ada).around(call(), async () => void log.push('work'));
    expect(log).toContain('work');
    expect(errors).toHaveLength(1);
  });

  it('groups the tab a navigation or new tab leaves in front, when that tab is on an allowed site', async () => {
    const allowed = setUp({ front: tab(9) });
    await allowed.presence
      .activityFor(() => ada)
      .around(call({ tool: 'new_tab', target: 'tabs', tab: undefined }), async () => {});
    expect(allowed.log).toEqual(['join Ada 9']);
    const refused = setUp({ front: tab(9, 'https://elsewhere.example/') });
    await refused.presence
      .activityFor(() => ada)
      .around(call({ tool: 'navigate', target: 'tabs', tab: undefined }), async () => {});
    expect(refused.log).toEqual([]);
    const listing = setUp({ front: tab(9) });
    await listing.presence
      .activityFor(() => ada)
      .around(call({ tool: 'tabs', write: false, target: 'tabs', tab: undefined }), async () => {});
    expect(listing.log).toEqual([]);
  });

  it('groups nothing for an agent with tabs of its own: not the background tab it acts in, not the tab in front', async () => {
    const { log, presence } = setUp({ front: tab(9) });
    const activity = presence.activityFor(() => ada);
    await activity.around(call({ follows: false, tab: tab(4) }), async () => {});
    for (const tool of ['new_tab', 'navigate', 'switch_tab'])
      await activity.around(call({ tool, follows: false, target: 'tabs', tab: undefined }), async () => {});
    expect(log.filter((line) => line.startsWith('join'))).toEqual([]);
    expect(log).toContain(`show 4 Ada is working here ${OUTLINE_COLOURS[colourFor('ada')]}`);
  });
});
