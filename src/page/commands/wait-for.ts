/**
 * Waits until text, an element matching a selector, or an element as a snapshot would print it
 * (role and name) appears (or, with `gone`, disappears) in this document. Checks run when the DOM
 * changes, a beat later (so a burst of changes is checked once), plus a slow safety check for
 * changes no mutation announces (style sheets, animations). Bounded by `timeoutMs`; the panel can
 * cancel it by id. All of it keeps Tabwright's time (`../clock.ts`), not the page's frames or
 * timers, so it is as prompt in a tab that is not in front.
 */
import type { z } from 'zod';
import { BEAT_MS, pageClock } from '../clock';
import { PageError, type PageEnv } from '../env';
import type { CancelWaitCommand, WaitForCommand } from '../protocol';
import { readableText } from '../readable-text';
import { RefRegistry } from '../refs';
import { walkSnapshot } from '../snapshot';
import { lineMatches, targetMatch } from '../target-match';

const SAFETY_CHECK_MS = 250;
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

function presence(command: z.output<typeof WaitForCommand>, env: PageEnv): () => boolean {
  if (command.target !== undefined) {
    const match = targetMatch(command.target);
    // A registry of its own: looking is not a snapshot, and hands out none of the document's refs.
    return () => {
      const root = env.document.body ?? env.document.documentElement;
      return walkSnapshot(root, { refs: new RefRegistry('') }).lines.some((line) => lineMatches(line, match));
    };
  }
  if (command.selector !== undefined) {
    const selector = command.selector;
    try {
      env.document.querySelector(selector);
    } catch {
      throw new PageError(`The selector ${selector} is not valid CSS.`, 'bad-selector');
    }
    return () => {
      const element = env.document.querySelector(selector);
      return !!element && (!command.visible || (element.checkVisibility?.() ?? true));
    };
  }
  const wanted = normalise(command.text ?? '');
  return () => normalise(readableText(env.document.body ?? env.document.documentElement)).includes(wanted);
}

export function runWaitFor(command: z.output<typeof WaitForCommand>, env: PageEnv) {
  const present = presence(command, env);
  const met = () => present() !== command.gone;
  const started = performance.now();
  const controller = new AbortController();
  env.waits.get(command.waitId)?.abort();
  env.waits.set(command.waitId, controller);
  return new Promise<{ met: boolean; waitedMs: number }>((resolve) => {
    let pending = false;
    const observer = new MutationObserver(() => schedule());
    let cancelCheck = () => {};
    let cancelSafety = () => {};
    const finish = (result: boolean) => {
      observer.disconnect();
      cancelDeadline();
      cancelCheck();
      cancelSafety();
      if (env.waits.get(command.waitId) === controller) env.waits.delete(command.waitId);
      resolve({ met: result, waitedMs: Math.round(performance.now() - started) });
    };
    const check = () => {
      pending = false;
      if (!controller.signal.aborted && met()) finish(true);
    };
    const schedule = () => {
      if (pending) return;
      pending = true;
      cancelCheck = pageClock.schedule(BEAT_MS, check);
    };
    const safetyCheck = () => {
      schedule();
      cancelSafety = pageClock.schedule(SAFETY_CHECK_MS, safetyCheck);
    };
    const cancelDeadline = pageClock.schedule(command.timeoutMs, () => finish(met()));
    cancelSafety = pageClock.schedule(SAFETY_CHECK_MS, safetyCheck);
    controller.signal.addEventListener('abort', () => finish(false), { once: true });
    if (met()) {
      finish(true);
      return;
    }
    observer.observe(env.document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

export function runCancelWait(command: z.output<typeof CancelWaitCommand>, env: PageEnv) {
  const controller = env.waits.get(command.waitId);
  controller?.abort();
  return { cancelled: !!controller };
}
