/**
 * The settle wait after an action, through the real tunnel: a page that says "loading" at once and
 * renders what its server sent later (by fetch and by XMLHttpRequest, at several server delays)
 * is answered with the rendered result, also when the page called a `fetch` it saved at load; a page
 * that reacts at once ends the wait on quiet frames, one when it set nothing for soon, and what a
 * page renders a moment later by a timer or by work in slices is still shown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMING_META, type ActionTiming } from '../../src/contract/mcp';
import type { CallToolResult } from '../../broker/panel-tools';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import type { Route } from './fixture-server';

/** `/actions/order?delay=ms&n=k`: order k, answered after the delay. */
const order: Route = (request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? '/', 'http://fixture');
  if (url.pathname !== '/actions/order') return false;
  const delay = Number(url.searchParams.get('delay') ?? 0);
  const id = Number(url.searchParams.get('n') ?? 0);
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify({ id, state: 'shipped' }));
  }, delay);
  return true;
};

const timingOf = (result: CallToolResult) =>
  (result._meta as Record<string, unknown> | undefined)?.[TIMING_META] as ActionTiming | undefined;

describe('settle after an action', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig({ routes: [order] });
  });
  afterAll(async () => rig?.close());

  for (const delay of [0, 40, 250, 900]) {
    it(`shows what a fetch brought back ${delay} ms later, not the loading text`, async () => {
      await rig.open(`/actions/fetched.html?delay=${delay}`);
      const snapshot = textOf(await rig.call('snapshot'));
      const button = refIn(snapshot, /button "Look up with fetch"/);
      for (const n of [1, 2]) {
        const result = await rig.call('click', { ref: button });
        const text = textOf(result);
        expect(text).toContain(`Order ${n} shipped`);
        expect(text).not.toContain('Looking up');
        expect(text).not.toContain('kept changing');
        expect(timingOf(result)?.settleReason).toBe('quiet');
      }
    });
  }

  for (const delay of [0, 250]) {
    it(`shows what an XMLHttpRequest brought back ${delay} ms later`, async () => {
      await rig.open(`/actions/fetched.html?delay=${delay}`);
      const snapshot = textOf(await rig.call('snapshot'));
      const text = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Look up with XMLHttpRequest"/) }));
      expect(text).toContain('Order 1 shipped');
      expect(text).not.toContain('Looking up');
    });
  }

  for (const delay of [250, 900]) {
    it(`waits for a fetch the page kept from its load, ${delay} ms`, async () => {
      // The reference was taken by the page's first script: only a hook installed before it sees the call.
      await rig.open(`/actions/kept-fetch.html?delay=${delay}`);
      const snapshot = textOf(await rig.call('snapshot'));
      const text = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Look up with the page's client"/) }));
      expect(text).toContain('Order 1 shipped');
      expect(text).not.toContain('Looking up');
    });
  }

  // One quiet beat ends the wait only when the page set nothing for soon: a change it makes a moment
  // later, by a timer or by work queued in slices, is still what the answer shows.
  for (const after of [12, 20, 28]) {
    for (const [button, shown] of [
      ['Show after a short timer', 'shown after a timer'],
      ['Show after work in slices', 'shown after its slices'],
    ] as const) {
      it(`shows what the page rendered ${after} ms after the action (${button.toLowerCase()})`, async () => {
        await rig.open(`/actions/fetched.html?after=${after}`);
        const snapshot = textOf(await rig.call('snapshot'));
        const ref = refIn(snapshot, new RegExp(`button "${button}"`));
        for (const n of [1, 2, 3]) {
          const text = textOf(await rig.call('click', { ref }));
          expect(text).toContain(`Order ${n} ${shown}`);
          expect(text).not.toContain('Looking up');
        }
      });
    }
  }

  // An action that changes nothing at once: the wait ends early only when the page's own world vouches
  // that nothing the action set is due; a debounced render or a worker's answer is still waited for.
  for (const debounce of [120, 250]) {
    it(`shows what a search debounced by ${debounce} ms found after typing`, async () => {
      await rig.open(`/actions/fetched.html?debounce=${debounce}`);
      const snapshot = textOf(await rig.call('snapshot'));
      const ref = refIn(snapshot, /searchbox "Search orders"/);
      for (const query of ['42', '7']) {
        const result = await rig.call('type', { ref, text: query, clear: true });
        expect(textOf(result)).toContain(`Order ${query} found`);
        expect(timingOf(result)?.settleReason).toBe('quiet');
      }
    });
  }

  for (const after of [60, 150]) {
    it(`shows the answer a worker sent back ${after} ms after a click that changed nothing`, async () => {
      await rig.open(`/actions/fetched.html?after=${after}`);
      const snapshot = textOf(await rig.call('snapshot'));
      const ref = refIn(snapshot, /button "Check with a worker"/);
      for (const n of [1, 2]) {
        const result = await rig.call('click', { ref });
        expect(textOf(result)).toContain(`Order ${n} checked by the worker`);
      }
    });
  }

  it('ends an idle wait on two beats when the page vouches that nothing the action set is due', async () => {
    await rig.open('/actions/fetched.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const result = await rig.call('type', { ref: refIn(snapshot, /textbox "Note"/), text: 'leave at the door' });
    expect(textOf(result)).toContain('leave at the door');
    const timing = timingOf(result);
    expect(timing?.settleReason).toBe('idle');
    expect(timing?.settleBeats).toBe(2);
  });

  it('ends the wait on quiet frames when the page reacts at once, and reports where the time went', async () => {
    await rig.open('/actions/fetched.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const result = await rig.call('click', { ref: refIn(snapshot, /button "Show at once"/) });
    expect(textOf(result)).toContain('Order 1 shown at once');
    const timing = timingOf(result);
    expect(timing?.settleReason).toBe('quiet');
    // The page set nothing for soon, which the page's own world vouched for: one quiet beat was enough.
    expect(timing?.settleBeats).toBe(1);
    expect(Object.keys(timing ?? {}).sort()).toEqual([
      'pageMs',
      'reportMs',
      'settleBeats',
      'settleMs',
      'settleReason',
      'workMs',
    ]);
    // Timing lives beside the answer, never in the text the model reads.
    expect(textOf(result)).not.toMatch(/settleMs|pageMs/);
  });
});
