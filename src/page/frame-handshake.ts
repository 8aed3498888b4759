/**
 * Tells a parent document which of its iframe elements holds which child document, across origins.
 * Each child's agent posts `{nonce, documentId}` to its parent window; the parent's agent (in the
 * isolated world) records `event.source`, which is the child's window, and later matches it against
 * `iframe.contentWindow`. The nonce is fresh per snapshot, so a page cannot prepare claims in
 * advance; a window or a document id can only be claimed once per nonce (the genuine message is
 * posted first), which keeps a page from pointing one frame at another frame's document.
 */

const KEY = '__tabwrightFrameHello';
const MAX_NONCES = 8;
const MAX_CLAIMS = 512;

interface Claim {
  source: MessageEventSource;
  documentId: string;
}

export class FrameHandshake {
  readonly #claims = new Map<string, Claim[]>();
  readonly #listeners = new Set<() => void>();

  constructor(private readonly view: Window) {
    view.addEventListener('message', (event) => this.#receive(event), true);
  }

  #receive(event: MessageEvent): void {
    const data: unknown = event.data;
    if (!data || typeof data !== 'object' || !(KEY in data) || !event.source) return;
    const hello = (data as Record<string, unknown>)[KEY] as Record<string, unknown> | null;
    if (!hello || typeof hello.nonce !== 'string' || typeof hello.documentId !== 'string') return;
    const { nonce, documentId } = hello as { nonce: string; documentId: string };
    let claims = this.#claims.get(nonce);
    if (!claims) {
      if (this.#claims.size >= MAX_NONCES) this.#claims.delete(this.#claims.keys().next().value!);
      claims = [];
      this.#claims.set(nonce, claims);
    }
    if (claims.length >= MAX_CLAIMS) return;
    if (claims.some((claim) => claim.source === event.source || claim.documentId === documentId)) return;
    claims.push({ source: event.source, documentId });
    for (const listener of this.#listeners) listener();
  }

  /** Introduces this document to its parent, if it has one. */
  announce(nonce: string, documentId: string): void {
    if (this.view.parent === this.view) return;
    this.view.parent.postMessage({ [KEY]: { nonce, documentId } }, '*');
  }

  /** The document id announced from inside `frame` under `nonce`, if one was. */
  documentIn(frame: Element, nonce: string): string | undefined {
    const window = (frame as HTMLIFrameElement).contentWindow;
    if (!window) return undefined;
    return this.#claims.get(nonce)?.find((claim) => claim.source === window)?.documentId;
  }

  /** Resolves once every listed document has announced itself, or after `timeoutMs`. */
  awaitDocuments(nonce: string, documentIds: readonly string[], timeoutMs: number): Promise<void> {
    const done = () => {
      const claims = this.#claims.get(nonce) ?? [];
      return documentIds.every((id) => claims.some((claim) => claim.documentId === id));
    };
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve();
      };
      const check = () => done() && finish();
      const timer = setTimeout(finish, timeoutMs);
      this.#listeners.add(check);
    });
  }
}
