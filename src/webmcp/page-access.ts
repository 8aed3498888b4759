/**
 * The only way page-declared tools are read or run. The tab's top document is looked up and its
 * URL put to the gates' decision first; the script then runs in that document only (Chrome's
 * document id), so a navigation in between makes it fail instead of reaching another page; and
 * the answer carries the URL it was produced at, withheld unless that URL passes too and is
 * still on the server's origin. The page's scripts share the world the answer is made in, so the
 * URL Chrome reports for the document afterwards is judged as well.
 */
import { PageCommandError } from '../mcp-server/browser-port';
import { originOf } from '../mcp-server/gates/origin';
import type { ReadDecision } from '../mcp-server/page-guard';
import type { DeclaredPageTool } from './page-tools';

export interface TopDocument {
  url: string;
  documentId?: string;
}

/** Answers of the main-world functions (main-world.ts): `url` is where the page was when it answered. */
export type MainWorldAnswer<T> = { ok: true; value: T; url: string } | { ok: false; error: string; url: string };

/** Chrome's side: the tab's top document, and the two main-world calls pinned to a document. */
export interface PageToolsTransport {
  topDocument(tabId: number): Promise<TopDocument | undefined>;
  listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<DeclaredPageTool[]>>;
  runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<MainWorldAnswer<string | null>>;
}

export interface PageAccessOptions {
  transport: PageToolsTransport;
  decide: ReadDecision;
}

export class PageToolsAccess {
  constructor(private readonly options: PageAccessOptions) {}

  async #document(tabId: number, origin: string): Promise<TopDocument> {
    const top = await this.options.transport.topDocument(tabId).catch(() => undefined);
    if (!top) throw new PageCommandError('The tab was closed.', 'tab-gone');
    await this.#judge(top.url, origin, 'refused');
    return top;
  }

  async #judge(url: string, origin: string, code: 'refused' | 'moved-refused'): Promise<void> {
    if (originOf(url) !== origin) {
      throw new PageCommandError(`The tab is no longer on ${origin}, so its page tools are not reachable.`, code);
    }
    const refusal = await this.options.decide(url);
    if (refusal) {
      throw new PageCommandError(
        code === 'refused'
          ? `The tab is on a page Tabwright may not read, so nothing was read or done there. ${refusal}`
          : `The page moved to an address Tabwright may not read before it answered, so its answer is not shown. ${refusal}`,
        code,
      );
    }
  }

  async #answer<T>(tabId: number, checked: TopDocument, answer: MainWorldAnswer<T>, origin: string): Promise<T> {
    await this.#judge(answer.url, origin, 'moved-refused');
    const now = await this.options.transport.topDocument(tabId).catch(() => undefined);
    if (!now || (checked.documentId && now.documentId !== checked.documentId)) {
      throw new PageCommandError('The page navigated before it answered, so its answer is not shown.', 'moved-refused');
    }
    await this.#judge(now.url, origin, 'moved-refused');
    if (!answer.ok) throw new PageCommandError(answer.error, 'page-tool');
    return answer.value;
  }

  /** The tools the tab's document declares now; `url` is the document's address. */
  async list(tabId: number, origin: string): Promise<{ url: string; tools: DeclaredPageTool[] }> {
    const top = await this.#document(tabId, origin);
    const answer = await this.options.transport.listTools(tabId, top.documentId);
    const tools = await this.#answer(tabId, top, answer, origin);
    return { url: answer.url, tools: Array.isArray(tools) ? tools : [] };
  }

  /** Runs one declared tool with arguments already checked against its schema. */
  async run(
    tabId: number,
    origin: string,
    name: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ url: string; raw: string | null }> {
    const top = await this.#document(tabId, origin);
    const answer = await this.options.transport.runTool(tabId, top.documentId, name, input, signal);
    const raw = await this.#answer(tabId, top, answer, origin);
    return { url: answer.url, raw: typeof raw === 'string' ? raw : null };
  }
}
