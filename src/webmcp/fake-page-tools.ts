/** A tab set for page-tool tests: each tab's top document, what it declares, and what each run returns. */
import type { TabInfo } from '../mcp-server/browser-port';
import type { MainWorldAnswer, PageToolsTransport, TopDocument } from './page-access';
import type { DeclaredPageTool } from './page-tools';

export interface FakePageTab {
  tab: TabInfo;
  document: TopDocument;
  tools: DeclaredPageTool[];
  /** Where the page says it is when it answers (a route change while a tool runs), if not the document's URL. */
  answersFrom?: string;
  /** The top document once the script has answered (a navigation while a tool ran), if it changed. */
  after?: TopDocument;
  run?(name: string, input: Record<string, unknown>): string | null | Error;
}

export class FakePageTools implements PageToolsTransport {
  readonly sent: Array<{ tabId: number; documentId: string | undefined; name?: string; input?: unknown }> = [];

  constructor(readonly tabs: FakePageTab[]) {}

  #tab(tabId: number): FakePageTab | undefined {
    return this.tabs.find((entry) => entry.tab.id === tabId);
  }

  async findTab(origin: string): Promise<TabInfo | undefined> {
    return this.tabs.find((entry) => entry.tab.url?.startsWith(`${origin}/`))?.tab;
  }

  async topDocument(tabId: number): Promise<TopDocument | undefined> {
    const entry = this.#tab(tabId);
    return this.sent.some((sent) => sent.tabId === tabId) ? (entry?.after ?? entry?.document) : entry?.document;
  }

  async listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<DeclaredPageTool[]>> {
    this.sent.push({ tabId, documentId });
    const entry = this.#tab(tabId)!;
    return { ok: true, value: entry.tools, url: entry.answersFrom ?? entry.document.url };
  }

  async runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
  ): Promise<MainWorldAnswer<string | null>> {
    this.sent.push({ tabId, documentId, name, input });
    const entry = this.#tab(tabId)!;
    const url = entry.answersFrom ?? entry.document.url;
    const value = entry.run?.(name, input) ?? null;
    if (value instanceof Error) return { ok: false, error: value.message, url };
    return { ok: true, value, url };
  }
}
