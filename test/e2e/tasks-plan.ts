/**
 * Task plans and the runner that carries one out through a contender. A plan is a list of steps,
 * each naming its element by role and accessible name as an agent reads it in a snapshot; the
 * contender's adapter says which tool calls a step becomes. Every call the plan makes is counted
 * (calls, characters of the answers the agent reads, wall time); opening the page and reading the
 * page's state afterwards are the test's own business and are not counted.
 *
 * One rule for every contender, the one an agent follows: a task starts with one read of the page
 * (a snapshot); a step acts on a target only if a line showing it was in an earlier answer on that
 * side (tasks-reads.ts), by the ref the line prints, or by its role and name when it prints none
 * and the contender's tools take that. A target not read yet is looked up (the contender's find)
 * and, when that does not show it either, looked up again a few times (a menu still opening). The
 * lookups are calls like any other, counted.
 */
import type { Page } from 'playwright-core';
import { Reads } from './tasks-reads';

/** An element as an agent finds it: its role (either tree's, where they differ) and its name. */
export interface Target {
  role: string | string[];
  name: string;
  /** The name only starts with `name` (it carries a changing value after it). */
  prefix?: boolean;
  /**
   * Nothing on the page marks the element as one to act on (a plain table cell whose row a
   * container's listener selects), so its line may carry no ref. Any other target's line should
   * carry one: a run lists the targets it acted on by role and name without being marked so.
   */
  unmarked?: boolean;
}

export interface TaskFile {
  name: string;
  mimeType: string;
  /** UTF-8 text content. */
  text: string;
}

export interface DialogAnswer {
  accept: boolean;
  promptText?: string;
}

export type Step =
  | { do: 'click'; on: Target; dialog?: DialogAnswer; double?: boolean }
  | { do: 'hover'; on: Target }
  | { do: 'type'; on: Target; text: string; submit?: boolean }
  | { do: 'select_option'; on: Target; label: string }
  | { do: 'press_key'; on: Target; key: string }
  | { do: 'drag'; on: Target; to: Target }
  | { do: 'upload_file'; on: Target; files: TaskFile[] };

export type Capability =
  | 'dialog'
  | 'upload'
  | 'drag'
  | 'native input'
  | 'shadow DOM'
  /** An element only script makes clickable: no interactive role, its listeners on a container. */
  | 'clickable by script'
  /** What a hover reveals, a moment after the pointer arrives. */
  | 'hover'
  /** An editor that takes its text through an EditContext. */
  | 'EditContext';

export interface Task {
  id: string;
  library: string;
  /** The capabilities of issue-level interest the task exercises. */
  needs: Capability[];
  page: string;
  /** A page expression that is truthy once the library has set the page up. */
  ready: string;
  steps: Step[];
  /** A page expression giving the state to compare, read through the library's own API. */
  state: string;
  expected: unknown;
}

export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
  /**
   * The files the answer links to instead of saying (Playwright MCP's page snapshot after an
   * action), each a whole page: what an agent reads too when it looks at the outcome.
   */
  linked?: string[];
}

/** A found element: by the ref its line carries, or by the role and name its line prints when it has no ref. */
export type Handle = { ref: string } | { target: { role: string; name: string } };

/** The elements a step acts on, as the contender's answers showed them. */
export interface Resolved {
  on: Handle;
  to?: Handle;
}

export interface Adapter {
  label: string;
  /** Opens the task's page and answers with the test's own handle on it (not counted). */
  open(url: string): Promise<Page>;
  call(call: ToolCall): Promise<ToolAnswer>;
  /** The read a task starts with: the whole page. */
  read(): ToolCall;
  /** The read that looks for a target not seen yet. */
  find(target: Target): ToolCall;
  /** Acts on a line without a ref by its role and name, as the contender's tools document. */
  actsByTarget?: boolean;
  /** The calls one step becomes. */
  act(step: Step, refs: Resolved): ToolCall[];
  /** Leaves nothing pending (an unanswered dialog, an open file chooser) after a failed task. */
  recover?(): Promise<void>;
  /** Dialogs that reached the browser itself during the task, where the contender should have answered them. */
  strayDialogs?(page: Page): string[];
  /** Done with the page. */
  close(page: Page): Promise<void>;
}

export interface TaskRun {
  task: string;
  completed: boolean;
  chars: number;
  /** `chars` plus the linked files' characters (ToolAnswer.linked). */
  withLinked: number;
  calls: number;
  /** Of the calls, the lookups (find) made for targets the answers had not shown yet. */
  lookups: number;
  /** Targets acted on that were seen only in a linked file, never in an answer itself. */
  seenOnlyLinked: number;
  /** Targets not marked `unmarked` whose line had no ref, so they were acted on by role and name. */
  withoutRef: string[];
  ms: number;
  /** Why it did not complete. */
  failure?: string;
  /** The state read afterwards. */
  state?: unknown;
}

/** A target looked for again this many times when a read does not show it yet (a menu still opening). */
const FIND_RETRIES = 3;
const FIND_PAUSE_MS = 400;
/** How long the page may take to settle into the expected state after the last step. */
const STATE_WAIT_MS = 3_000;
const READY_WAIT_MS = 15_000;

export function describeTarget(target: Target): string {
  return `${[target.role].flat()[0]} "${target.name}${target.prefix ? '…' : ''}"`;
}

class StepFailure extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The page's state, polled until it is the expected one or the wait is over. */
/**
 * The task's state once it matches, or as it is after a while; a task that already failed is read
 * once, as nothing it did is still on its way.
 */
export async function settledState(page: Page, task: Task, failed = false): Promise<unknown> {
  const deadline = Date.now() + (failed ? 0 : STATE_WAIT_MS);
  for (;;) {
    const state: unknown = await page.evaluate(task.state).catch((error: Error) => `unreadable: ${error.message}`);
    if (same(state, task.expected) || Date.now() > deadline) return state;
    await sleep(100);
  }
}

/**
 * Waits for the task's page to be ready, asking from here: the page's own timers would run a
 * hidden tab's polls about a second apart.
 */
async function untilReady(page: Page, task: Task): Promise<void> {
  const deadline = Date.now() + READY_WAIT_MS;
  const ready = `!!(${task.ready})`;
  // A page still loading may lose its context under the question: that is "not yet".
  while (!(await page.evaluate<boolean>(ready).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${task.id}: the page was not ready within ${READY_WAIT_MS} ms`);
    await sleep(50);
  }
}

export async function runTask(task: Task, adapter: Adapter, baseUrl: string): Promise<TaskRun> {
  const page = await adapter.open(`${baseUrl}${task.page}`);
  const reads = new Reads();
  let chars = 0;
  let linked = 0;
  let calls = 0;
  let lookups = 0;
  let seenOnlyLinked = 0;
  const withoutRef: string[] = [];
  const call = async (toolCall: ToolCall, whole = false): Promise<void> => {
    calls++;
    const answer = await adapter.call(toolCall);
    chars += answer.text.length;
    reads.add({ text: answer.text, whole, linked: false });
    for (const file of answer.linked ?? []) {
      linked += file.length;
      reads.add({ text: file, whole: true, linked: true });
    }
    if (answer.isError) throw new StepFailure(`${toolCall.tool} failed: ${answer.text.slice(0, 600)}`);
  };
  const handleFor = async (target: Target): Promise<Handle> => {
    for (let attempt = 0; ; attempt++) {
      const seen = reads.find(target);
      if (seen && (seen.ref || adapter.actsByTarget)) {
        if (seen.linked) seenOnlyLinked++;
        if (seen.ref) return { ref: seen.ref };
        if (!target.unmarked) withoutRef.push(describeTarget(target));
        return { target: { role: seen.role, name: seen.name } };
      }
      if (attempt > FIND_RETRIES) throw new StepFailure(`${describeTarget(target)} is not on the page`);
      if (attempt > 0) await sleep(FIND_PAUSE_MS);
      lookups++;
      await call(adapter.find(target));
    }
  };
  try {
    await untilReady(page, task);
    const started = performance.now();
    let failure: string | undefined;
    try {
      await call(adapter.read(), true);
      for (const step of task.steps) {
        const refs: Resolved = { on: await handleFor(step.on) };
        if (step.do === 'drag') refs.to = await handleFor(step.to);
        for (const toolCall of adapter.act(step, refs)) await call(toolCall);
      }
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error;
      failure = error.message;
    }
    const ms = performance.now() - started;
    if (failure) await adapter.recover?.();
    const stray = adapter.strayDialogs?.(page) ?? [];
    if (stray.length && !failure) failure = `a dialog reached the browser unanswered: ${stray.join('; ')}`;
    const state = await settledState(page, task, failure !== undefined);
    const completed = !failure && same(state, task.expected);
    if (!completed && !failure) failure = `state ${JSON.stringify(state)}, expected ${JSON.stringify(task.expected)}`;
    return {
      task: task.id,
      completed,
      chars,
      withLinked: chars + linked,
      calls,
      lookups,
      seenOnlyLinked,
      withoutRef,
      ms,
      state,
      ...(failure ? { failure } : {}),
    };
  } finally {
    await adapter.close(page);
  }
}

/** Base64 of a task file's content, as `upload_file` takes it. */
export function base64Of(file: TaskFile): string {
  return Buffer.from(file.text, 'utf8').toString('base64');
}
