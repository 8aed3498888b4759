/**
 * Chrome's side of page-declared tools: which tab offers an origin's tools, its top document, the
 * main-world calls pinned to that document, and whether the registered content scripts reached it
 * (asked of the isolated world, where the page cannot answer for them).
 */
import type { TabInfo } from '../mcp-server/browser-port';
import { originOf } from '../mcp-server/gates/origin';
import { RELAY_KEY } from '../page/dialogs/channel';
import { TOOL_REGISTRATIONS_KEY } from '../page/main-world/tool-registrations';
import type { MainWorldAnswer, PageToolsTransport, RunCheck, TopDocument } from '../webmcp/page-access';
import { listPageToolsInMainWorld, runPageToolInMainWorld, type PageToolsReading } from '../webmcp/main-world';
import { explainScriptingError } from './chrome-page';
import { raceAbort } from '../shared/race-abort';

function targetOf(tabId: number, documentId: string | undefined): chrome.scripting.InjectionTarget {
  return documentId ? { tabId, documentIds: [documentId] } : { tabId, frameIds: [0] };
}

async function runInDocument<T>(run: () => Promise<chrome.scripting.InjectionResult<T>[]>, signal?: AbortSignal) {
  try {
    const [injection] = await raceAbort(run(), signal);
    if (!injection) throw new Error('No frame with id 0');
    return injection.result as T;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw explainScriptingError(error);
  }
}

/**
 * Runs in the isolated world: the dialog relay is there only in a document the registered content
 * scripts reached at its start, and the main-world script, its registration hook included, is
 * registered beside it. Self-contained: the key comes as an argument.
 */
function relayInstalled(key: string): boolean {
  return (globalThis as unknown as Record<string, unknown>)[key] !== undefined;
}

/** Whether a document was hooked never changes; a few recent answers spare a script per reading. */
const HOOKED_CACHE = 16;

export class ChromePageToolsTransport implements PageToolsTransport {
  readonly #hooked = new Map<string, boolean>();

  constructor(private readonly windowId: number) {}

  /** The window's active tab when it is on `origin`, else its most recently used tab there. */
  async findTab(origin: string): Promise<TabInfo | undefined> {
    const tabs = (await chrome.tabs.query({ windowId: this.windowId })).filter(
      (tab) => tab.id !== undefined && originOf(tab.url) === origin,
    );
    const tab = tabs.find((t) => t.active) ?? tabs.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
    if (!tab?.id) return undefined;
    return {
      id: tab.id,
      windowId: tab.windowId,
      url: tab.url ?? '',
      title: tab.title ?? '',
      active: tab.active,
      loading: tab.status === 'loading',
    };
  }

  async topDocument(tabId: number): Promise<TopDocument | undefined> {
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
    if (!frame) return undefined;
    return { url: frame.url, ...(frame.documentId ? { documentId: frame.documentId } : {}) };
  }

  listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<PageToolsReading>> {
    return runInDocument(() =>
      chrome.scripting.executeScript({
        target: targetOf(tabId, documentId),
        world: 'MAIN',
        func: listPageToolsInMainWorld,
        args: [TOOL_REGISTRATIONS_KEY],
      }),
    );
  }

  runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
    check: RunCheck,
    signal?: AbortSignal,
  ): Promise<MainWorldAnswer<string | null>> {
    return runInDocument(
      () =>
        chrome.scripting.executeScript({
          target: targetOf(tabId, documentId),
          world: 'MAIN',
          func: runPageToolInMainWorld,
          args: [name, input, check.gatedAs, check.registrationsTrusted ? TOOL_REGISTRATIONS_KEY : null],
        }),
      signal,
    );
  }

  async hooked(tabId: number, documentId: string | undefined): Promise<boolean> {
    const known = documentId === undefined ? undefined : this.#hooked.get(documentId);
    if (known !== undefined) return known;
    const answer = await runInDocument<boolean>(() =>
      chrome.scripting.executeScript({
        target: targetOf(tabId, documentId),
        world: 'ISOLATED',
        func: relayInstalled,
        args: [RELAY_KEY],
      }),
    ).catch(() => undefined);
    const hooked = answer === true;
    // Only an answer is kept: a document that could not be asked now may be asked again.
    if (documentId !== undefined && answer !== undefined) {
      this.#hooked.set(documentId, hooked);
      if (this.#hooked.size > HOOKED_CACHE) this.#hooked.delete(this.#hooked.keys().next().value!);
    }
    return hooked;
  }
}
