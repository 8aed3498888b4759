/**
 * A signed-in MantisBT visitor without a browser: loads pages, keeps the session cookie, and
 * submits the app's own forms (with their security tokens) the way a person filling them in would.
 * The test setup seeds MantisBT through these pages rather than through its database.
 */
import { JSDOM } from 'jsdom';

export interface Page {
  url: string;
  document: Document;
}

/** The text MantisBT shows in its error box, if the page is one of its error pages. */
export function pageError(document: Document): string | null {
  // Its warnings share the red box; an error is the box with the "proceed" line.
  const box = document.querySelector('.alert-danger .error-info')?.closest('.alert-danger');
  const text = box?.querySelectorAll('p')[1]?.textContent?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
}

export class MantisVisitor {
  readonly #base: string;
  readonly #cookies = new Map<string, string>();

  constructor(base: string) {
    this.#base = base.endsWith('/') ? base : `${base}/`;
  }

  async #request(path: string, init: { method: string; body?: URLSearchParams | FormData }): Promise<Page> {
    let url = new URL(path, this.#base).href;
    let method = init.method;
    let body = init.body;
    for (let hops = 0; hops < 10; hops++) {
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        ...(body ? { body } : {}),
        signal: AbortSignal.timeout(60_000),
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        const name = pair!.slice(0, at).trim();
        const value = pair!.slice(at + 1).trim();
        if (value === '' || value === 'deleted' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) {
          this.#cookies.delete(name);
        } else this.#cookies.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).href;
        method = 'GET';
        body = undefined;
        continue;
      }
      const html = await response.text();
      // MantisBT sends some redirects as a page with a meta refresh.
      const refresh = /<meta http-equiv="Refresh" content="\d+;\s*URL=([^"]+)"/i.exec(html);
      if (refresh && response.status === 200 && !html.includes('<form')) {
        url = new URL(refresh[1]!.replaceAll('&amp;', '&'), url).href;
        method = 'GET';
        body = undefined;
        continue;
      }
      if (response.status >= 500)
        throw new Error(`MantisBT answered ${response.status} for ${url}:\n${html.slice(0, 2000)}`);
      return { url, document: new JSDOM(html, { url }).window.document };
    }
    throw new Error(`Too many redirects from ${path}`);
  }

  get(path: string): Promise<Page> {
    return this.#request(path, { method: 'GET' });
  }

  /**
   * Fills the form found by `selector` on `page` — every field keeps the value the page gave it
   * unless `values` sets it — and submits it. Files go as multipart, like the browser sends them.
   * Fails with MantisBT's own message when it answers with an error page.
   */
  async submit(
    page: Page,
    selector: string,
    values: Record<string, string | string[] | boolean>,
    files: Record<string, { name: string; content: string }> = {},
  ): Promise<Page> {
    const form = page.document.querySelector<HTMLFormElement>(selector);
    if (!form) throw new Error(`No form ${selector} on ${page.url}`);
    const fields = new Map<string, string[]>();
    for (const element of Array.from(form.elements) as HTMLInputElement[]) {
      if (!element.name || element.disabled) continue;
      if (element.type === 'submit' || element.type === 'button' || element.type === 'file') continue;
      if ((element.type === 'checkbox' || element.type === 'radio') && !element.checked) continue;
      if (element.tagName === 'SELECT') {
        const chosen = Array.from((element as unknown as HTMLSelectElement).selectedOptions).map((o) => o.value);
        fields.set(element.name, chosen);
        continue;
      }
      fields.set(element.name, [...(fields.get(element.name) ?? []), element.value]);
    }
    for (const [name, value] of Object.entries(values)) {
      if (value === false) fields.delete(name);
      else if (value === true) fields.set(name, ['on']);
      else fields.set(name, Array.isArray(value) ? value : [value]);
    }
    const multipart = form.enctype === 'multipart/form-data' || Object.keys(files).length > 0;
    const body = multipart ? new FormData() : new URLSearchParams();
    for (const [name, list] of fields) for (const value of list) body.append(name, value);
    for (const [name, file] of Object.entries(files)) {
      (body as FormData).append(name, new Blob([file.content], { type: 'text/plain' }), file.name);
    }
    const action = new URL(form.getAttribute('action') ?? '', page.url).href;
    const result = await this.#request(action, { method: (form.method || 'GET').toUpperCase(), body });
    const error = pageError(result.document);
    if (error) throw new Error(`MantisBT refused ${selector} on ${page.url}: ${error}`);
    return result;
  }

  /** Signs in through the two login pages (user name, then password). */
  async signIn(username: string, password: string): Promise<void> {
    const first = await this.get('login_page.php');
    const second = await this.submit(first, '#login-form', { username });
    const landed = await this.submit(second, '#login-form', { password });
    if (!landed.document.querySelector('a[href*="logout_page.php"]')) {
      throw new Error(`Signing in to MantisBT as ${username} did not work (landed on ${landed.url})`);
    }
  }
}
