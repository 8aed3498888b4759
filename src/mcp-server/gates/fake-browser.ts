/**
 * A browser for gate tests: tabs in memory, a page that answers every command with a plausible
 * reply, and a record of everything that would have changed something, so a test can assert that
 * nothing ran for a refused call.
 */
import type { BrowserPort, FrameInfo, PageTransport, TabInfo } from '../browser-port';
import type { FrameRectsReply, PageCommand } from '../../page/protocol';

/** The page's scroll geometry, as the `viewport` command reports it (CSS pixels). */
export interface FakeViewport {
  width: number;
  height: number;
  scrollHeight: number;
  y: number;
}

export interface FakeBrowser extends BrowserPort {
  tabs: TabInfo[];
  /** Every call that acts on a page or the tab set (reads of tab metadata are not listed). */
  effects: string[];
  /** Page commands run, by op (including the read-only `inspectTargets` and `snapshot`). */
  commands: string[];
  /** The same commands whole, as sent. */
  sent: PageCommand[];
  /** Refs/selectors the page reports as password fields. */
  passwordFields: Set<string>;
  /** What a snapshot of the page shows, every line a lookup names included. */
  lines: string[];
  /** What `page.frames()` lists (when empty: the tab's top frame alone). */
  frameList: FrameInfo[];
  /** Each frame's answer to `frameRects`, by frame id; a frame missing here fails the command. */
  frameRects: Map<number, FrameRectsReply>;
  /** When set, the `viewport` command answers with (and scrolls) this. */
  viewport: FakeViewport | undefined;
  /** What open capture watches report; set it to make a capture see a change. */
  captureChange: string | undefined;
  /** Capture watches started and not yet disposed. */
  openWatches: number;
  /** Runs inside every `captureVisible`, with the number of captures so far (from 1). */
  onCapture: ((count: number) => void) | undefined;
  /** The picture each capture returns, by its number (otherwise always the same tiny JPEG). */
  captureData: ((count: number) => string) | undefined;
}

const READ_ONLY_OPS = new Set([
  'snapshot',
  'inspectTargets',
  'getText',
  'readDom',
  'hello',
  'viewport',
  'find',
  'personIdle',
]);

export function fakeBrowser(tabs: TabInfo[]): FakeBrowser {
  const effects: string[] = [];
  const commands: string[] = [];
  const sent: PageCommand[] = [];
  const passwordFields = new Set<string>();
  const byId = (id: number) => tabs.find((tab) => tab.id === id);
  let captures = 0;
  const answer = (tab: TabInfo | undefined, value: unknown) =>
    ({ value, url: tab?.url ?? '', documentId: `doc-${tab?.id}` }) as never;
  const page: PageTransport = {
    async send(tabId, command: PageCommand, options) {
      commands.push(command.op);
      sent.push(command);
      if (!READ_ONLY_OPS.has(command.op)) effects.push(`page:${command.op}`);
      const tab = byId(tabId);
      if (command.op === 'frameRects') {
        const reply = browser.frameRects.get(options?.frameId ?? 0);
        if (!reply) throw new Error(`frame ${options?.frameId ?? 0} did not answer`);
        return answer(tab, reply);
      }
      const view = browser.viewport;
      if (command.op === 'viewport' && view) {
        if (command.scrollTo) view.y = Math.max(0, Math.min(command.scrollTo.y, view.scrollHeight - view.height));
        return answer(tab, {
          x: 0,
          y: view.y,
          width: view.width,
          height: view.height,
          scrollWidth: view.width,
          scrollHeight: view.scrollHeight,
          devicePixelRatio: 1,
        });
      }
      if (command.op === 'inspectTargets') {
        return answer(tab, {
          targets: command.targets.map((t) => {
            const key = 'ref' in t ? t.ref : t.selector;
            return { found: true, secret: passwordFields.has(key), role: 'textbox', name: key };
          }),
        });
      }
      return answer(tab, {
        title: tab?.title ?? '',
        url: tab?.url ?? '',
        lines: browser.lines,
        nextRef: 3,
        description: `did ${command.op}`,
        text: 'page text',
        html: '<p>page</p>',
      });
    },
    async frames(tabId): Promise<FrameInfo[]> {
      if (browser.frameList.length) return [...browser.frameList];
      const tab = byId(tabId);
      return tab ? [{ frameId: 0, parentFrameId: -1, url: tab.url ?? '', documentId: `doc-${tab.id}` }] : [];
    },
  };
  const browser: FakeBrowser = {
    tabs,
    effects,
    commands,
    sent,
    passwordFields,
    lines: ['- button "Delete" [e1]', '- textbox "Password" [e2]'],
    frameList: [],
    frameRects: new Map(),
    viewport: undefined,
    captureChange: undefined,
    openWatches: 0,
    onCapture: undefined,
    captureData: undefined,
    page,
    async getTab(id) {
      return byId(id);
    },
    async activeTab(windowId) {
      return tabs.find((tab) => tab.active && tab.windowId === windowId);
    },
    async listTabs() {
      return [...tabs];
    },
    async createTab({ url, active, windowId }) {
      effects.push(`createTab:${url ?? ''}`);
      const tab = { id: 100 + tabs.length, windowId, url, title: 'new', active, loading: false };
      tabs.push(tab);
      return tab;
    },
    async activateTab(id) {
      effects.push(`activateTab:${id}`);
      return byId(id)!;
    },
    async closeTab(id) {
      effects.push(`closeTab:${id}`);
    },
    async navigate(id, url) {
      effects.push(`navigate:${url}`);
      return { ...byId(id)!, url };
    },
    async goHistory(id, direction) {
      effects.push(`history:${direction}`);
      return byId(id)!;
    },
    async reload(id) {
      effects.push('reload');
      return byId(id)!;
    },
    watchCapture() {
      browser.openWatches++;
      let open = true;
      return {
        get changed() {
          return browser.captureChange;
        },
        dispose() {
          if (open) browser.openWatches--;
          open = false;
        },
      };
    },
    async captureVisible() {
      effects.push('capture');
      captures++;
      browser.onCapture?.(captures);
      return browser.captureData?.(captures) ?? '/9j/4AAQSkZJRgABAQ==';
    },
    async canCaptureScreenshots() {
      return true;
    },
    async composeJpeg(parts) {
      return { data: parts[0]?.data ?? '', width: 1, height: 1 };
    },
  };
  return browser;
}
