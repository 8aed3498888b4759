/**
 * A hook in the page's own world that announces each request the page makes — `fetch`, its body
 * reads, and `XMLHttpRequest` — as `start:<id>` / `end:<id>` events on the window, so the page
 * agent (isolated world, which cannot see them) knows when an action's requests have finished.
 * It carries no URL or content: only that a request began or ended. On allowed sites it goes in
 * at document_start with the main-world script (index.ts), ahead of any page script that keeps its
 * own reference to `fetch`; the panel injects it again beside the agent for documents loaded before
 * that registration existed, and the marker makes the second install a no-op.
 */
import { REQUEST_EVENT } from '../actions/request-watch';

/** Runs in the page's main world through `executeScript({ func })`: must not close over anything. */
export function installRequestSignals(eventName: string): void {
  const view = window as unknown as Record<symbol, unknown> & typeof window;
  const installed = Symbol.for(eventName);
  if (view[installed]) return;
  Object.defineProperty(view, installed, { value: true });
  let next = 0;
  const send = (kind: 'start' | 'end', id: number) =>
    view.dispatchEvent(new CustomEvent(eventName, { detail: `${kind}:${id}` }));
  /** Wraps an async call so its start and its settling are announced. */
  const tracked = <T>(run: () => Promise<T>): Promise<T> => {
    const id = ++next;
    send('start', id);
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (error) {
      send('end', id);
      throw error;
    }
    const end = () => send('end', id);
    Promise.resolve(pending).then(end, end);
    return pending;
  };
  const fetch = view.fetch;
  if (typeof fetch === 'function') {
    view.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      return tracked(() => fetch.apply(this, args));
    } as typeof fetch;
  }
  const body = Response.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
    const read = body[name];
    if (typeof read !== 'function') continue;
    body[name] = function (this: unknown, ...args: unknown[]) {
      return tracked(() => read.apply(this, args));
    };
  }
  const xhr = XMLHttpRequest.prototype;
  const xhrSend = xhr.send;
  xhr.send = function (this: XMLHttpRequest, ...args: Parameters<typeof xhrSend>) {
    const id = ++next;
    send('start', id);
    this.addEventListener('loadend', () => send('end', id), { once: true });
    try {
      xhrSend.apply(this, args);
    } catch (error) {
      send('end', id);
      throw error;
    }
  };
}

export const REQUEST_SIGNALS = { func: installRequestSignals, args: [REQUEST_EVENT] as [string] };
