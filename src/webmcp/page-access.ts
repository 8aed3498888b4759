/**
 * The only way page-declared tools are read or run. The tab's top document is looked up and its
 * URL put to the gates' decision first; the script then runs in that document only (Chrome's
 * document id), so a navigation in between makes it fail instead of reaching another page; and
 * the answer carries the URL it was produced at, withheld unless that URL passes too and is
 * still on the server's origin. The page's scripts share the world the answer is made in, so the
 * URL Chrome reports for the document afterwards is judged as well.
 *
 * The registration hook's records are read in that world too, where a page could put a reader of
 * its own: they count only in a document the hook reached before any page script, which its
 * isolated-world half (out of the page's reach) vouches for.
 */
import { PageCommandError, tabGone } from '../mcp-server/browser-port';
import { originOf } from '../mcp-server/gates/origin';
import type { ReadDecision } from '../mcp-server/page-guard';
import type { DeclaredPageTool, MainWorldAnswer, PageToolsReading, Strictness } from './declared';
import { parseRegistrations, type Registrations } from './registered-hints';

export type { MainWorldAnswer };

export interface TopDocument {
  url: string;
  documentId?: string;
}

/** What a run is held to: how the gates took the tool, and whether the hook's records count there. */
export interface RunCheck {
  gatedAs: Strictness;
  registrationsTrusted: boolean;
}

/** Chrome's side: the tab's top document, and the calls into it pinned to that document. */
export interface PageToolsTransport {
  topDocument(tabId: number): Promise<TopDocument | undefined>;
  listTools(tabId: number, documentId: string | undefined): Promise<MainWorldAnswer<PageToolsReading>>;
  runTool(
    tabId: number,
    documentId: string | undefined,
    name: string,
    input: Record<string, unknown>,
    check: RunCheck,
    signal?: AbortSignal,
  ): Promise<MainWorldAnswer<string | null>>;
  /** Whether the content scripts registered for allowed sites reached this document at its start. */
  hooked(tabId: number, documentId: string | undefined): Promise<boolean>;
}

export interface PageToolsRead {
  url: string;
  documentId: string | undefined;
  tools: DeclaredPageTool[];
  /** The hook's records, when the document has trustworthy ones. */
  registrations: Registrations | undefined;
}

export interface PageAccessOptions {
  transport: PageToolsTransport;
  decide: ReadDecision;
}

export class PageToolsAccess {
  constructor(private readonly options: PageAccessOptions) {}

  async #document(tabId: number, origin: string): Promise<TopDocument> {
    const top = await this.options.transport.topDocument(tabId).catch(() => undefined);
    if (!top) throw tabGone();
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
    if (!answer.ok) throw new PageCommandError(answer.error, answer.changed ? 'page-changed' : 'page-tool');
    return answer.value;
  }

  #hooked(tabId: number, top: TopDocument): Promise<boolean> {
    return this.options.transport.hooked(tabId, top.documentId).catch(() => false);
  }

  /** The tools the tab's document declares now, and the hook's records there; `url` is the document's address. */
  async list(tabId: number, origin: string): Promise<PageToolsRead> {
    const top = await this.#document(tabId, origin);
    const answer = await this.options.transport.listTools(tabId, top.documentId);
    const reading = await this.#answer(tabId, top, answer, origin);
    const tools = Array.isArray(reading?.tools) ? reading.tools : [];
    const registrations =
      reading?.registrations !== undefined && (await this.#hooked(tabId, top))
        ? parseRegistrations(reading.registrations)
        : undefined;
    return { url: answer.url, documentId: top.documentId, tools, registrations };
  }

  /**
   * Runs one declared tool with arguments already checked against its schema, unless the page has
   * made it stricter than `gatedAs` since it was read (then the error's code is `page-changed`).
   * Left out, `gatedAs` asks the most of the page.
   */
  async run(
    tabId: number,
    origin: string,
    name: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
    gatedAs: Strictness = 'read',
  ): Promise<{ url: string; raw: string | null }> {
    const top = await this.#document(tabId, origin);
    const registrationsTrusted = gatedAs !== 'every-call' && (await this.#hooked(tabId, top));
    const check = { gatedAs, registrationsTrusted };
    const answer = await this.options.transport.runTool(tabId, top.documentId, name, input, check, signal);
    const raw = await this.#answer(tabId, top, answer, origin);
    return { url: answer.url, raw: typeof raw === 'string' ? raw : null };
  }
}
