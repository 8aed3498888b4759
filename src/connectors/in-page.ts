/**
 * Functions that run inside the connector's page through `chrome.scripting.executeScript({ func,
 * args })`. Chrome serialises each function's source, so every one is self-contained: no imports,
 * no closures, no helpers outside its own body. Arguments and results are plain JSON.
 */
import type { ExtractRequest, ExtractedRecord } from './fields';

/** `url`: where the page was when the value was read, so the panel can judge that very document. */
export type InPageResult<T> = { ok: true; value: T; url?: string } | { ok: false; error: string; code: string };

/** Reads `request.fields` from each row (or once from the page). */
export function extractInPage(request: ExtractRequest): InPageResult<ExtractedRecord[]> {
  const readable = (element: Element): string => {
    const html = element as HTMLElement;
    // innerText follows the rendered layout (line breaks where the page shows them); without
    // layout, source whitespace means nothing, as in HTML itself.
    if (typeof html.innerText !== 'string' || html.innerText.trim() === '') {
      return (element.textContent ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
    }
    const out: string[] = [];
    for (const line of html.innerText.replace(/\u00a0/g, ' ').split(/\r?\n/)) {
      const tidy = line.replace(/[ \t\f\v]+/g, ' ').trim();
      if (tidy === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
      out.push(tidy);
    }
    while (out.length && out[out.length - 1] === '') out.pop();
    return out.join('\n');
  };
  const labelKey = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\s*:$/, '').toLowerCase();
  const select = (scope: ParentNode, selector: string): Element[] => {
    try {
      return Array.from(scope.querySelectorAll(selector));
    } catch {
      throw { code: 'bad-selector', message: `The selector ${selector} is not valid CSS.` };
    }
  };
  // The rule of isSecretField (src/page/secret-field.ts), restated here because this function
  // travels alone; in-page.test.ts holds the two to the same answers.
  const secretField = (element: Element): boolean => {
    if (element.localName !== 'input') return false;
    if ((element as HTMLInputElement).type === 'password') return true;
    const tokens = (element.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
    return tokens.some((token) => request.secret.autocomplete.includes(token));
  };
  const read = (element: Element, field: ExtractRequest['fields'][string]): string | number | null => {
    const valueWanted = field.pick === 'value' || field.attribute?.toLowerCase() === 'value';
    if (valueWanted && secretField(element)) return request.secret.hidden;
    if (field.attribute) return element.getAttribute(field.attribute);
    if (field.pick === 'href') {
      const link = (element.closest('a[href]') ?? element.querySelector('a[href]')) as HTMLAnchorElement | null;
      return link ? link.href : null;
    }
    if (field.pick === 'value') {
      const value = (element as HTMLInputElement).value;
      return typeof value === 'string' ? value : null;
    }
    const text = readable(element);
    if (field.pick === 'number') {
      const match = /-?\d+(?:\.\d+)?/.exec(text.replace(/(\d),(\d{3})/g, '$1$2'));
      return match ? Number(match[0]) : null;
    }
    return text;
  };
  const readField = (scope: Element | Document, field: ExtractRequest['fields'][string]) => {
    let matches: Element[];
    if (!field.selector) matches = scope instanceof Element ? [scope] : [scope.documentElement];
    else matches = select(scope, field.selector);
    if (field.label !== undefined) {
      const wanted = labelKey(field.label);
      matches = matches
        .filter((element) => labelKey(readable(element)) === wanted)
        .map((element) => element.nextElementSibling)
        .filter((element): element is Element => element !== null);
    }
    if (field.pick === 'exists') return matches.length > 0;
    if (field.all) return matches.map((element) => read(element, field));
    return matches[0] ? read(matches[0], field) : null;
  };
  try {
    const root: ParentNode = request.within
      ? (select(document, request.within)[0] ?? document.createElement('div'))
      : document;
    const scopes: Array<Element | Document> = request.rows ? select(root, request.rows) : [document];
    const limited = request.limit ? scopes.slice(0, request.limit) : scopes;
    const rows = limited.map((scope) => {
      const record: ExtractedRecord = {};
      for (const [name, field] of Object.entries(request.fields)) record[name] = readField(scope, field);
      return record;
    });
    return { ok: true, value: rows, url: location.href };
  } catch (error) {
    const known = error as { code?: string; message?: string };
    return { ok: false, error: known.message ?? String(error), code: known.code ?? 'extract' };
  }
}

/** Waits until `selector` matches (or, with `gone`, stops matching), up to `timeoutMs`. */
export function waitInPage(selector: string, timeoutMs: number, gone: boolean): Promise<InPageResult<boolean>> {
  const present = () => {
    try {
      return document.querySelector(selector) !== null;
    } catch {
      return undefined;
    }
  };
  if (present() === undefined) {
    return Promise.resolve({ ok: false, error: `The selector ${selector} is not valid CSS.`, code: 'bad-selector' });
  }
  return new Promise((resolve) => {
    const done = () => present() !== gone;
    if (done()) return resolve({ ok: true, value: true, url: location.href });
    const observer = new MutationObserver(() => {
      if (done()) finish(true);
    });
    const timer = setTimeout(() => finish(done()), timeoutMs);
    const finish = (value: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve({ ok: true, value, url: location.href });
    };
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

export interface PageFetchRequest {
  url: string;
  method: string;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** Bytes of text kept from the response. */
  maxChars: number;
}

export interface PageFetchResponse {
  status: number;
  url: string;
  redirected: boolean;
  contentType: string;
  text: string;
  truncated: boolean;
}

/**
 * A request the page itself could make: same origin, the page's own cookies, nothing else. Runs in
 * the page so the site sees an ordinary same-origin request.
 */
export async function fetchInPage(request: PageFetchRequest): Promise<InPageResult<PageFetchResponse>> {
  try {
    const target = new URL(request.url, location.href);
    if (target.origin !== location.origin) {
      return { ok: false, error: `Connectors may only fetch from ${location.origin}.`, code: 'cross-origin' };
    }
    const init: RequestInit = { method: request.method, credentials: 'same-origin', headers: { ...request.headers } };
    if (request.form) init.body = new URLSearchParams(request.form);
    else if (request.body !== undefined) init.body = request.body;
    const response = await fetch(target.href, init);
    const text = await response.text();
    return {
      ok: true,
      value: {
        status: response.status,
        url: response.url,
        redirected: response.redirected,
        contentType: response.headers.get('content-type') ?? '',
        text: text.slice(0, request.maxChars),
        truncated: text.length > request.maxChars,
      },
    };
  } catch (error) {
    return { ok: false, error: `The request failed: ${String((error as Error)?.message ?? error)}`, code: 'fetch' };
  }
}

/** Where the page is and whether it shows a sign-in form. */
export function pageStateInPage(signedOutSelector: string | null): { url: string; signedOut: boolean; title: string } {
  let signedOut = false;
  if (signedOutSelector) {
    try {
      signedOut = document.querySelector(signedOutSelector) !== null;
    } catch {
      signedOut = false;
    }
  }
  return { url: location.href, signedOut, title: document.title };
}
