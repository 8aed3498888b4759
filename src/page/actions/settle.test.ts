// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentOutline } from '../outline';
import { REQUEST_EVENT } from './request-watch';
import { SettleWatch, type Due, type SettleOptions } from './settle';

const OPTIONS: SettleOptions = { quietBeats: 2, quietMs: 0, idleMs: 300, capMs: 3_000 };

/** Animation frames the page has drawn since `start`, counted by a callback of our own each frame. */
function frameCounter(view: Window): { readonly frames: number; stop(): void } {
  let frames = 0;
  let id = 0;
  const tick = () => {
    frames++;
    id = view.requestAnimationFrame(tick);
  };
  id = view.requestAnimationFrame(tick);
  return {
    get frames() {
      return frames;
    },
    stop: () => view.cancelAnimationFrame(id),
  };
}

describe('SettleWatch', () => {
  let output: HTMLElement;
  beforeEach(() => {
    document.body.innerHTML = '<output>0</output>';
    output = document.querySelector('output')!;
  });
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('ends two frames after an action that changed the page within itself', async () => {
    const watch = new SettleWatch(document);
    output.textContent = '1'; // the page's handler answered synchronously
    await Promise.resolve();
    const counter = frameCounter(window);
    const settled = await watch.settle(OPTIONS, new AbortController().signal);
    counter.stop();
    watch.dispose();
    expect(settled.reason).toBe('quiet');
    expect(settled.mutations).toBeGreaterThan(0);
    // The frame that shows the change and one more; a third would be a wait the page never needed.
    expect(counter.frames).toBeLessThanOrEqual(2);
  });

  it('waits for two quiet frames after a change the page makes once the wait has begun', async () => {
    const watch = new SettleWatch(document);
    const counter = frameCounter(window);
    const wait = watch.settle(OPTIONS, new AbortController().signal);
    let changedAtFrame = -1;
    window.requestAnimationFrame(() => {
      changedAtFrame = counter.frames;
      output.textContent = 'later';
    });
    const settled = await wait;
    counter.stop();
    watch.dispose();
    expect(settled.reason).toBe('quiet');
    expect(changedAtFrame).toBeGreaterThanOrEqual(0);
    // Frames after the change passed before the wait ended (a timer stands in for a late frame).
    expect(counter.frames).toBeGreaterThan(changedAtFrame);
  });

  it('ends on one quiet beat when the page has no work set for soon, on two when it has', async () => {
    const beatsWith = async (soon: () => Due) => {
      const watch = new SettleWatch(document, soon);
      output.textContent = String(Math.random()); // the page answered within the action
      const settled = await watch.settle(OPTIONS, new AbortController().signal);
      watch.dispose();
      expect(settled.reason).toBe('quiet');
      return settled.beats;
    };
    expect(await beatsWith(() => 'none')).toBe(1);
    expect(await beatsWith(() => 'later')).toBe(1);
    expect(await beatsWith(() => 'soon')).toBe(2);
    // What the action queued is asked about once before the first beat, and not held against it.
    let asked = 0;
    expect(await beatsWith(() => (asked++ === 0 ? 'soon' : 'none'))).toBe(1);
  });

  it('catches a change the page makes on a timer it set for soon, after a quiet first beat', async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = new SettleWatch(document, () => (timer !== undefined ? 'soon' : 'none'));
    // The action's handler said "loading" at once and set a timer to show the result.
    output.textContent = 'loading';
    timer = setTimeout(() => {
      timer = undefined;
      output.textContent = 'shown';
    }, 24);
    await Promise.resolve();
    const settled = await watch.settle(OPTIONS, new AbortController().signal);
    watch.dispose();
    expect(output.textContent).toBe('shown');
    expect(settled.settleMs).toBeGreaterThanOrEqual(24);
    expect(settled.beats).toBe(1);
  });

  it('waits for a request the action started, then for quiet frames', async () => {
    const watch = new SettleWatch(document);
    window.dispatchEvent(new CustomEvent(REQUEST_EVENT, { detail: 'start:1' }));
    const wait = watch.settle(OPTIONS, new AbortController().signal);
    let ended = false;
    setTimeout(() => {
      ended = true;
      window.dispatchEvent(new CustomEvent(REQUEST_EVENT, { detail: 'end:1' }));
    }, 120);
    const settled = await wait;
    watch.dispose();
    expect(ended).toBe(true);
    expect(settled.reason).toBe('quiet');
    expect(settled.settleMs).toBeGreaterThanOrEqual(120);
  });

  it('does not take the agent outline, drawn while the action runs, for a change of the page', async () => {
    const watch = new SettleWatch(document);
    const outline = new AgentOutline(document);
    outline.show('Ada is working here', '#1a73e8', 10_000);
    outline.show('Bob is working here', '#d93025', 10_000);
    const settled = await watch.settle({ ...OPTIONS, idleMs: 100 }, new AbortController().signal);
    outline.hide();
    watch.dispose();
    expect(settled.reason).toBe('idle');
    expect(settled.mutations).toBe(0);
  });

  it('waits the idle time when the action changed nothing', async () => {
    const watch = new SettleWatch(document);
    const settled = await watch.settle({ ...OPTIONS, idleMs: 100 }, new AbortController().signal);
    watch.dispose();
    expect(settled.reason).toBe('idle');
    expect(settled.mutations).toBe(0);
    expect(settled.settleMs).toBeGreaterThanOrEqual(100);
  });

  it('ends an idle wait after two beats when the page vouches that nothing the action set is due', async () => {
    const idle = async (due: () => Due, idleVouched = true) => {
      const watch = new SettleWatch(document, due);
      const settled = await watch.settle({ ...OPTIONS, idleVouched }, new AbortController().signal);
      watch.dispose();
      expect(settled.reason).toBe('idle');
      return settled;
    };
    const vouched = await idle(() => 'none');
    expect(vouched.beats).toBe(2);
    expect(vouched.settleMs).toBeLessThan(OPTIONS.idleMs);
    // Work due within the idle time, an unvouched wait (a page that set its work before the watch):
    // the idle time is waited out, and no beats are claimed.
    for (const settled of [await idle(() => 'later'), await idle(() => 'soon'), await idle(() => 'none', false)]) {
      expect(settled.beats).toBeUndefined();
      expect(settled.settleMs).toBeGreaterThanOrEqual(OPTIONS.idleMs);
    }
  });

  it('still waits for a debounced change: a timer due within the idle time, then what it renders', async () => {
    // The action typed into a search field; the page renders its results 250 ms later.
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
      timer = undefined;
      output.textContent = 'results';
    }, 250);
    const watch = new SettleWatch(document, () => (timer !== undefined ? 'later' : 'none'));
    const settled = await watch.settle({ ...OPTIONS, idleVouched: true }, new AbortController().signal);
    watch.dispose();
    expect(output.textContent).toBe('results');
    expect(settled.reason).toBe('quiet');
    expect(settled.settleMs).toBeGreaterThanOrEqual(250);
  });
});
