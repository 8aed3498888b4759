/**
 * Tells a parent document which of its iframe elements holds which child frame, across origins.
 * Each child's agent posts `{nonce, frameId}` to its parent window; the parent's agent (in the
 * isolated world) records `event.source`, which is the child's window, and matches it against
 * `iframe.contentWindow`. The nonce is fresh per snapshot, so a page cannot prepare claims in
 * advance; a window or a frame id can only be claimed once per nonce (the genuine message is
 * posted first), which keeps a page from pointing one iframe at another frame's content.
 */
import { pageClock } from './clock';

const KEY = '__tabwrightFrameHello';
const MAX_NONCES = 8;
const MAX_CLAIMS = 512;

interface Claim {
  source: MessageEventSource;
  frameId: number;
}

export class FrameHandshake {
  readonly #claims = new Map<string, Claim[]>();
  readonly #listeners = new Set<() => void>();
  /** The iframe elements of the last snapshot walked under a nonce, to match once children speak. */
  #walked: { nonce: string; slots: Array<{ line: number; element: WeakRef<Element> }> } | undefined;

  constructor(private readonly view: Window) {
    view.addEventListener('message', (event) => this.#receive(event), true);
  }

  #receive(event: MessageEvent): void {
    const data: unknown = event.data;
    if (!data || typeof data !== 'object' || !(KEY in data) || !event.source) return;
    const hello = (data as Record<string, unknown>)[KEY] as Record<string, unknown> | null;
    if (!hello || typeof hello.nonce !== 'string' || !Number.isInteger(hello.frameId)) return;
    const { nonce, frameId } = hello as { nonce: string; frameId: number };
    let claims = this.#claims.get(nonce);
    if (!claims) {
      if (this.#claims.size >= MAX_NONCES) this.#claims.delete(this.#claims.keys().next().value!);
      claims = [];
      this.#claims.set(nonce, claims);
    }
    if (claims.length >= MAX_CLAIMS) return;
    if (claims.some((claim) => claim.source === event.source || claim.frameId === frameId)) return;
    claims.push({ source: event.source, frameId });
    for (const listener of this.#listeners) listener();
  }

  /** Introduces this document to its parent, if it has one. */
  announce(nonce: string, frameId: number): void {
    if (this.view.parent === this.view) return;
    this.view.parent.postMessage({ [KEY]: { nonce, frameId } }, '*');
  }

  /** The frame id announced from inside `frame` under `nonce`, if one was. */
  frameIn(frame: Element, nonce: string): number | undefined {
    const window = (frame as HTMLIFrameElement).contentWindow;
    if (!window) return undefined;
    return this.#claims.get(nonce)?.find((claim) => claim.source === window)?.frameId;
  }

  rememberSlots(nonce: string, lines: readonly number[], elements: readonly Element[]): void {
    this.#walked = { nonce, slots: elements.map((element, i) => ({ line: lines[i]!, element: new WeakRef(element) })) };
  }

  /** The remembered slots of `nonce`'s walk, each with the frame id announced from inside it. */
  slotsOf(nonce: string): Array<{ line: number; frameId?: number }> {
    if (this.#walked?.nonce !== nonce) return [];
    return this.#walked.slots.map(({ line, element }) => {
      const frame = element.deref();
      const frameId = frame ? this.frameIn(frame, nonce) : undefined;
      return frameId === undefined ? { line } : { line, frameId };
    });
  }

  /** Resolves once every listed frame has announced itself, or after `timeoutMs`. */
  awaitFrames(nonce: string, frameIds: readonly number[], timeoutMs: number): Promise<void> {
    const done = () => {
      const claims = this.#claims.get(nonce) ?? [];
      return frameIds.every((id) => claims.some((claim) => claim.frameId === id));
    };
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        cancel();
        this.#listeners.delete(check);
        resolve();
      };
      const check = () => done() && finish();
      const cancel = pageClock.schedule(timeoutMs, finish);
      this.#listeners.add(check);
    });
  }
}
