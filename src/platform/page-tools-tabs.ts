/**
 * Chrome's side of page-declared tools: which tab offers an origin's tools, its top document, and
 * the main-world calls pinned to that document.
 */
import type { TabInfo } from '../mcp-server/browser-port';
import { originOf } from '../mcp-server/gates/origin';
import type { MainWorldAnswer, PageToolsTransport, TopDocument } from '../webmcp/page-access';
import type { DeclaredPageTool } from '../webmcp/page-tools';
import { listPageToolsInMainWorld, runPageToolInMainWorld } from '../webmcp/main-world';
import { explainScriptingError } from './chrome-page';
import { raceAbort } from '../shared/race-abort';

function targetOf(tabId: number, documentId: string | undefined): chrome.scripting.InjectionTarget {
  return documentId ? { tabId, documentIds: [documentId] } : { tabId, frameIds: [0] };
}

async function inMainWorld<T>(run: () => Promise<chrome.scripting.InjectionResult<T>[]>, signal?: AbortSignal) {
  try {
    const [injection] = await raceAbort(run(), signal);
    if (!injection) throw new Error('No frame with id 0');
    return injection.result as T;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw explainScriptingError(error);
  }
}

export class ChromePageToolsTransport implements PageToolsTransport {
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

  listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<DeclaredPageTool[]>> {
    return inMainWorld(() =>
      chrome.scripting.executeScript({
        target: targetOf(tabId, documentId),
        world: 'MAIN',
        func: listPageToolsInMainWorld,
      }),
    );
  }

  runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<MainWorldAnswer<string | null>> {
    return inMainWorld(
      () =>
        chrome.scripting.executeScript({
          target: targetOf(tabId, documentId),
          world: 'MAIN',
          func: runPageToolInMainWorld,
          args: [name, input],
        }),
      signal,
    );
  }
}
