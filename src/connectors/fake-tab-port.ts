/**
 * A connector tab for unit tests: pages are HTML strings by URL, loaded into a jsdom document with
 * the real page agent in it. Commands reach that agent as JSON and its envelope is read by the
 * panel's own reader, and functions given to `evaluate` run against the same document, as the
 * real port runs them in Chrome.
 */
import { JSDOM } from 'jsdom';
import { PageCommandError, type FrameInfo, type PageAnswer, type PageTransport } from '../mcp-server/browser-port';
import { PageAgent } from '../page/agent';
import { FRAME_GONE_TEXT, PageErrorCode } from '../page/error-codes';
import type { PageCommand } from '../page/protocol';
import { readEnvelope } from '../platform/chrome-page';
import type { ConnectorTabPort } from './context';

export interface FakeSite {
  /** HTML by path+search; a string value that starts with `redirect:` sends the tab elsewhere. */
  pages: Record<string, string>;
  /** Answers for the page's fetch by path. */
  fetches?: Record<string, { status: number; url?: string; text?: string }>;
}

const PAGE_GLOBALS = [
  'document',
  'location',
  'Element',
  'MutationObserver',
  'fetch',
  'Event',
  'HTMLElement',
  'HTMLFormElement',
  'HTMLInputElement',
  'HTMLSelectElement',
  'HTMLTextAreaElement',
];

/** JSON in, JSON out: only what survives structured cloning crosses into and out of a page. */
const json = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export class FakeTabPort implements ConnectorTabPort {
  readonly opened: string[] = [];
  readonly visited: string[] = [];
  readonly fetched: Array<{ url: string; method: string; form?: Record<string, string> }> = [];
  /** Page-agent commands received, by op. */
  readonly commands: string[] = [];
  #dom: JSDOM | undefined;
  #agent: PageAgent | undefined;
  #documents = 0;
  #documentId = '';

  constructor(private readonly site: FakeSite) {}

  readonly page: PageTransport = {
    send: async <C extends PageCommand>(
      _tabId: number,
      command: C,
      options: { documentId?: string },
    ): Promise<PageAnswer<C>> => {
      if (options.documentId !== undefined && options.documentId !== this.#documentId) {
        throw new PageCommandError(FRAME_GONE_TEXT, PageErrorCode.FrameGone);
      }
      this.commands.push(command.op);
      const sentTo = this.#documentId;
      const agent = this.#agent!;
      const result = await this.#inPage(() => agent.handle(json(command)));
      // A document that went away while it worked cannot answer, as in Chrome.
      if (this.#documentId !== sentTo) throw new PageCommandError(FRAME_GONE_TEXT, PageErrorCode.FrameGone);
      return readEnvelope(command, json(result));
    },
    frames: async (): Promise<FrameInfo[]> =>
      this.#dom ? [{ frameId: 0, parentFrameId: -1, url: this.url, documentId: this.#documentId }] : [],
  };

  async acquire(connectorId: string, url: string): Promise<number> {
    if (!this.#dom) {
      this.opened.push(`${connectorId} ${url}`);
      await this.navigate(1, url);
    }
    return 1;
  }

  async navigate(_tabId: number, url: string): Promise<string> {
    let target = new URL(url);
    let html = this.site.pages[target.pathname + target.search];
    while (html?.startsWith('redirect:')) {
      target = new URL(html.slice('redirect:'.length), target);
      html = this.site.pages[target.pathname + target.search];
    }
    this.visited.push(target.href);
    const dom = new JSDOM(html ?? '<h1>404</h1>', { url: target.href, pretendToBeVisual: true });
    this.#dom = dom;
    this.#documentId = `doc-${++this.#documents}`;
    this.#agent = this.#inPageSync(() => new PageAgent(dom.window.document));
    return target.href;
  }

  async evaluate<Args extends unknown[], R>(_tabId: number, fn: (...args: Args) => R, args: Args): Promise<Awaited<R>> {
    return this.#inPage(() => fn(...json(args)));
  }

  /** Runs `work` with the page's globals in place, the way code injected into the page sees them. */
  async #inPage<T>(work: () => T): Promise<Awaited<T>> {
    const restore = this.#enter();
    try {
      return await work();
    } finally {
      restore();
    }
  }

  #inPageSync<T>(work: () => T): T {
    const restore = this.#enter();
    try {
      return work();
    } finally {
      restore();
    }
  }

  #enter(): () => void {
    const dom = this.#dom!;
    const scope = globalThis as unknown as Record<string, unknown>;
    const saved = Object.fromEntries(PAGE_GLOBALS.map((name) => [name, scope[name]]));
    for (const name of PAGE_GLOBALS) scope[name] = dom.window[name as keyof typeof dom.window];
    scope.fetch = async (url: string, init: RequestInit) => {
      const path = new URL(url).pathname;
      this.fetched.push({
        url,
        method: init.method ?? 'GET',
        ...(init.body instanceof URLSearchParams ? { form: Object.fromEntries(init.body) } : {}),
      });
      const answer = this.site.fetches?.[path] ?? { status: 404 };
      return {
        status: answer.status,
        url: answer.url ?? url,
        redirected: answer.url !== undefined,
        headers: new Headers({ 'content-type': 'text/html' }),
        text: async () => answer.text ?? '',
      };
    };
    return () => Object.assign(scope, saved);
  }

  /** The page changes its own route, as a single-page app does with history.pushState. */
  pushState(path: string): void {
    this.#dom!.window.history.pushState({}, '', path);
  }

  /** The document the tab shows now, for a test to change as the page's own scripts would. */
  get document(): Document {
    return this.#dom!.window.document;
  }

  get url(): string {
    return this.#dom?.window.location.href ?? '';
  }
}
