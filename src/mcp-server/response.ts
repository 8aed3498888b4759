/**
 * The only place that shapes an MCP `CallToolResult`: handlers describe what happened, the builder
 * decides how it goes on the wire, wraps page text, sets `isError` and keeps the result under the
 * tunnel's size limits.
 */
import type { TabInfo } from './browser-port';
import { isRefusal } from './page-guard';
import { describeChange } from './page-report';
import type { Snapshot } from './snapshot-service';
import { originOf } from './gates/origin';
import { wrapUntrusted } from '../shared/text/wrappers';

/** What an action reports the page with: the call's reader (bound to the gates), the tab, its own line. */
export interface PageReportRequest {
  readPage(tab: TabInfo): Promise<Snapshot>;
  tab: TabInfo;
  /** What the action did, e.g. `Clicked <button> "Save"`. */
  line: string;
  /** The snapshot taken before the action: a diff against it when the document is the same. */
  before?: Snapshot | undefined;
}

export { errorResult, type CallToolResult, type ContentBlock } from '../contract/mcp';
import type { CallToolResult, ContentBlock } from '../contract/mcp';

/** Well under OpenAB's 8 MiB frame limit, leaving room for the envelope. */
export const RESULT_CAP_BYTES = 4 * 1024 * 1024;

export class ResponseBuilder {
  readonly #content: ContentBlock[] = [];
  /** Which blocks carry page text: the ones an over-size report of an action gives up first. */
  readonly #pageBlocks = new Set<ContentBlock>();
  #structured: Record<string, unknown> | undefined;
  #meta: Record<string, unknown> | undefined;
  #isError = false;
  /** An action ran: its result must say so, whatever the page adds to it. */
  #acted = false;

  text(text: string): this {
    this.#content.push({ type: 'text', text });
    return this;
  }

  /** Text that came from a page: wrapped as untrusted content labelled with its origin. */
  pageText(origin: string, text: string): this {
    this.text(wrapUntrusted(origin, text));
    this.#pageBlocks.add(this.#content.at(-1)!);
    return this;
  }

  image(data: string, mimeType: string): this {
    this.#content.push({ type: 'image', data, mimeType });
    return this;
  }

  structured(value: Record<string, unknown>): this {
    this.#structured = value;
    return this;
  }

  /** Metadata beside the content (`_meta`): for the caller's tooling, never part of what the model reads. */
  meta(key: string, value: unknown): this {
    this.#meta = { ...this.#meta, [key]: value };
    return this;
  }

  /**
   * The page after an action or navigation, read through the gates: the diff against `before`
   * when it is the same document, else the whole page; if the tab is now on a page the gates
   * refuse, nothing of it — only the action line and why. Errors other than refusals propagate.
   */
  async reportPage({ readPage, tab, line, before }: PageReportRequest): Promise<void> {
    this.#acted = true;
    let after: Snapshot;
    try {
      after = await readPage(tab);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.text(`${line}. The tab is now on a page Tabwright may not read, so none of it is shown.`);
      this.text(error.message);
      return;
    }
    const change = describeChange(before, after);
    const navigated = change.kind === 'page' && change.navigatedTo !== undefined;
    this.text(navigated ? `${line}; the page changed to ${after.url}` : line);
    this.pageText(originOf(after.url), change.text);
  }

  /** A failure the model can act on: say what failed and what to do next. */
  error(text: string): this {
    this.#isError = true;
    return this.text(text);
  }

  get isError(): boolean {
    return this.#isError;
  }

  build(capBytes = RESULT_CAP_BYTES): CallToolResult {
    const result: CallToolResult = {
      content: this.#content.length ? [...this.#content] : [{ type: 'text', text: 'Done.' }],
    };
    if (this.#structured) result.structuredContent = this.#structured;
    if (this.#meta) result._meta = this.#meta;
    if (this.#isError) result.isError = true;
    const size = sizeOf(result);
    if (size <= capBytes) return result;
    return (this.#acted && this.#withoutPageText(result, capBytes)) || oversizeResult(size, capBytes);
  }

  /**
   * An action's result over the cap keeps its own lines and gives up page text, the largest
   * first, so the model still learns the action ran and is not led to repeat a write.
   */
  #withoutPageText(result: CallToolResult, capBytes: number): CallToolResult | undefined {
    const content = [...result.content];
    const largest = [...this.#pageBlocks].sort((a, b) => textLength(b) - textLength(a));
    for (const block of largest) {
      const at = content.indexOf(block);
      content[at] = {
        type: 'text',
        text:
          `(${textLength(block)} characters of page text left out: the result was over the size limit. ` +
          'Call snapshot, or find, to read the page.)',
      };
      const trimmed = { ...result, content };
      if (sizeOf(trimmed) <= capBytes) return trimmed;
    }
    return undefined;
  }
}

const textLength = (block: ContentBlock) => (block.type === 'text' ? block.text.length : 0);

function sizeOf(result: CallToolResult): number {
  return new TextEncoder().encode(JSON.stringify(result)).length;
}

export function oversizeResult(size: number, capBytes: number): CallToolResult {
  const mib = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `The result was ${mib(size)} MiB, over the ${mib(capBytes)} MiB limit, so it was not sent. ` +
          'Narrow the request: pass a CSS `selector` for one part of the page, a smaller `maxChars`, ' +
          'use `find` to locate elements, or scroll and read in parts.',
      },
    ],
  };
}
