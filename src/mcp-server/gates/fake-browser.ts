/**
 * A browser for gate tests: tabs in memory, a page that answers every command with a plausible
 * reply, and a record of everything that would have changed something, so a test can assert that
 * nothing ran for a refused call.
 */
import type { BrowserPort, FrameInfo, PageTransport, TabInfo } from '../browser-port';
import type { PageCommand } from '../../page/protocol';

export interface FakeBrowser extends BrowserPort {
  tabs: TabInfo[];
  /** Every call that acts on a page or the tab set (reads of tab metadata are not listed). */
  effects: string[];
  /** Page commands run, by op (including the read-only `inspectTargets` and `snapshot`). */
  commands: string[];
  /** Refs/selectors the page reports as password fields. */
  passwordFields: Set<string>;
}

const READ_ONLY_OPS = new Set(['snapshot', 'inspectTargets', 'getText', 'readDom', 'hello', 'viewport', 'find']);

export function fakeBrowser(tabs: TabInfo[]): FakeBrowser {
  const effects: string[] = [];
  const commands: string[] = [];
  const passwordFields = new Set<string>();
  const byId = (id: number) => tabs.find((tab) => tab.id === id);
  const answer = (tab: TabInfo | undefined, value: unknown) =>
    ({ value, url: tab?.url ?? '', documentId: `doc-${tab?.id}` }) as never;
  const page: PageTransport = {
    async send(tabId, command: PageCommand) {
      commands.push(command.op);
      if (!READ_ONLY_OPS.has(command.op)) effects.push(`page:${command.op}`);
      const tab = byId(tabId);
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
        lines: ['- button "Delete" [ref=e1]', '- textbox "Password" [ref=e2]'],
        nextRef: 3,
        description: `did ${command.op}`,
        text: 'page text',
        html: '<p>page</p>',
      });
    },
    async frames(tabId): Promise<FrameInfo[]> {
      const tab = byId(tabId);
      return tab ? [{ frameId: 0, parentFrameId: -1, url: tab.url ?? '', documentId: `doc-${tab.id}` }] : [];
    },
  };
  const browser: FakeBrowser = {
    tabs,
    effects,
    commands,
    passwordFields,
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
    async captureVisible() {
      effects.push('capture');
      return '/9j/4AAQSkZJRgABAQ==';
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
