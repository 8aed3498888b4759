// @vitest-environment jsdom
/**
 * The request signals in one window: each fetch and body read is announced once as it starts and
 * once as it ends, however many times the hook is installed, and the events say nothing else.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_EVENT } from '../actions/request-watch';
import { installRequestSignals } from './request-signals';

describe('the request signals', () => {
  it('announce a fetch and its body read once each, even when installed twice, with no URL', async () => {
    window.fetch = async () => new Response('{"id":7}', { headers: { 'content-type': 'application/json' } });
    installRequestSignals(REQUEST_EVENT);
    // The fallback beside the agent, in a document that already has the registered script.
    installRequestSignals(REQUEST_EVENT);
    const seen: unknown[] = [];
    window.addEventListener(REQUEST_EVENT, (event) => seen.push((event as CustomEvent).detail));

    const body = await (await window.fetch('/orders/secret-7?token=abc')).json();

    expect(body).toEqual({ id: 7 });
    expect(seen).toEqual(['start:1', 'end:1', 'start:2', 'end:2']);
  });
});
