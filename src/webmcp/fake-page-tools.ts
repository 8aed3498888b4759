/** A tab set for page-tool tests: each tab's top document, what it declares, and what each run returns. */
import type { TabInfo } from '../mcp-server/browser-port';
import type { PageToolsReading } from './main-world';
import type { MainWorldAnswer, PageToolsTransport, RunCheck, TopDocument } from './page-access';
import type { DeclaredPageTool } from './page-tools';

export interface FakePageTab {
  tab: TabInfo;
  document: TopDocument;
  tools: DeclaredPageTool[];
  /**
   * The registration hook's records as its reader returns them. Left out, the hook saw every tool
   * registered with the hints it lists; null, the document has no reader.
   */
  registrations?: string | null;
  /** Whether the registered content scripts reached the document (default: they did). */
  hooked?: boolean;
  /** Where the page says it is when it answers (a route change while a tool runs), if not the document's URL. */
  answersFrom?: string;
  /** The top document once the script has answered (a navigation while a tool ran), if it changed. */
  after?: TopDocument;
  run?(name: string, input: Record<string, unknown>, check: RunCheck): string | null | Error | { changed: string };
}

const isTrue = (tool: DeclaredPageTool, ...hints: string[]) =>
  hints.some((hint) => (tool.annotations as Record<string, unknown> | undefined)?.[hint] === true);

/** The records the hook would hold had every tool been registered through it. */
export function recordsOf(tools: readonly DeclaredPageTool[]): string {
  return JSON.stringify(
    tools
      .filter((tool) => typeof tool.name === 'string')
      .map((tool) => [tool.name, isTrue(tool, 'readOnlyHint'), isTrue(tool, 'destructiveHint', 'consequentialHint')]),
  );
}

export class FakePageTools implements PageToolsTransport {
  readonly sent: Array<{
    tabId: number;
    documentId: string | undefined;
    name?: string;
    input?: unknown;
    check?: RunCheck;
  }> = [];

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

  async listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<PageToolsReading>> {
    this.sent.push({ tabId, documentId });
    const entry = this.#tab(tabId)!;
    const registrations = entry.registrations === undefined ? recordsOf(entry.tools) : entry.registrations;
    return {
      ok: true,
      value: { tools: entry.tools, ...(registrations === null ? {} : { registrations }) },
      url: entry.answersFrom ?? entry.document.url,
    };
  }

  async runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
    check: RunCheck,
  ): Promise<MainWorldAnswer<string | null>> {
    this.sent.push({ tabId, documentId, name, input, check });
    const entry = this.#tab(tabId)!;
    const url = entry.answersFrom ?? entry.document.url;
    const value = entry.run?.(name, input, check) ?? null;
    if (value instanceof Error) return { ok: false, error: value.message, url };
    if (typeof value === 'object' && value !== null) return { ok: false, error: value.changed, changed: true, url };
    return { ok: true, value, url };
  }

  async hooked(tabId: number): Promise<boolean> {
    return this.#tab(tabId)?.hooked ?? true;
  }
}
