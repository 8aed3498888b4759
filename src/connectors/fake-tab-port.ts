/**
 * A connector tab for unit tests: pages are HTML strings by URL, loaded into a jsdom document, and
 * functions "run in the page" against that document, exactly as the real port runs them in Chrome.
 */
import { JSDOM } from 'jsdom';
import type { ConnectorTabPort } from './context';

export interface FakeSite {
  /** HTML by path+search; a string value that starts with `redirect:` sends the tab elsewhere. */
  pages: Record<string, string>;
  /** Answers for fetchInPage by path. */
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

export class FakeTabPort implements ConnectorTabPort {
  readonly opened: string[] = [];
  readonly visited: string[] = [];
  readonly fetched: Array<{ url: string; method: string; form?: Record<string, string> }> = [];
  #dom: JSDOM | undefined;

  constructor(private readonly site: FakeSite) {}

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
    this.#dom = new JSDOM(html ?? '<h1>404</h1>', { url: target.href });
    return target.href;
  }

  async run<Args extends unknown[], R>(_tabId: number, fn: (...args: Args) => R, args: Args): Promise<Awaited<R>> {
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
    try {
      // Serialise the arguments the way executeScript does: only JSON reaches the page.
      return await fn(...(JSON.parse(JSON.stringify(args)) as Args));
    } finally {
      Object.assign(scope, saved);
    }
  }

  /** The page changes its own route, as a single-page app does with history.pushState. */
  pushState(path: string): void {
    this.#dom!.window.history.pushState({}, '', path);
  }

  get url(): string {
    return this.#dom?.window.location.href ?? '';
  }
}
