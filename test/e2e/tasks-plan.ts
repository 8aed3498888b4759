/**
 * Task plans and the runner that carries one out through a contender. A plan is a list of steps,
 * each naming its element by role and accessible name as an agent reads it in a snapshot; the
 * contender's adapter says which tool calls a step becomes. Every call the plan makes is counted
 * (calls, characters of the answers the agent reads, wall time); opening the page and reading the
 * page's state afterwards are the test's own business and are not counted.
 */
import type { Page } from 'playwright-core';

/** An element as an agent finds it: its role (either tree's, where they differ) and its name. */
export interface Target {
  role: string | string[];
  name: string;
  /** The name only starts with `name` (it carries a changing value after it). */
  prefix?: boolean;
  /**
   * Nothing on the page marks the element as one to act on (a plain table cell whose row a
   * container's listener selects), so its line may carry no ref: a contender that acts on such a
   * line by its role and name does so. Elsewhere a line without a ref fails the task.
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
   * Characters of the files the answer links to instead of saying (Playwright MCP's page
   * snapshot after an action): what an agent reads too when it looks at the outcome.
   */
  linkedChars?: number;
}

/** A found element: by the ref its line carries, or by the role and name its line prints when it has no ref. */
export type Handle = { ref: string } | { target: { role: string; name: string } };

/** The elements a step acts on, as the contender's find showed them. */
export interface Resolved {
  on: Handle;
  to?: Handle;
}

export interface Adapter {
  label: string;
  /** Opens the task's page and answers with the test's own handle on it (not counted). */
  open(url: string): Promise<Page>;
  call(call: ToolCall): Promise<ToolAnswer>;
  /** The read that looks for a target. */
  find(target: Target): ToolCall;
  /** Acts on a found line without a ref by its role and name, as the contender's tools document. */
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
  /** `chars` plus the linked files' characters (ToolAnswer.linkedChars). */
  withLinked: number;
  calls: number;
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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The ref on the first line that shows `target`: `- role "name" … [ref=…]` in either snapshot
 * format, or, in Playwright MCP's, `- role [ref=…] [cursor=pointer]: name` (an element named by its
 * own text, printed after the colon, quoted when it holds YAML's special characters).
 */
export function refFor(text: string, target: Target): string | undefined {
  const roles = [target.role].flat().map(escape).join('|');
  const name = escape(target.name) + (target.prefix ? '[^"]*' : '');
  const quoted = new RegExp(`^\\s*- (?:${roles}) "${name}"(?=[\\s:\\[]|$).*?\\[ref=([^\\]\\s]+)\\]`);
  const afterColon = new RegExp(`^\\s*- (?:${roles}) \\[ref=([^\\]\\s]+)\\](?: \\[[^\\]]*\\])*: ("?)${name}\\2\\s*$`);
  for (const candidate of text.split('\n')) {
    const ref = quoted.exec(candidate)?.[1] ?? afterColon.exec(candidate)?.[1];
    if (ref) return ref;
  }
  return undefined;
}

/** The role and name of the first line that shows `target` without a ref, as `- role "name"`. */
export function printedLineFor(text: string, target: Target): { role: string; name: string } | undefined {
  const roles = [target.role].flat().map(escape).join('|');
  const name = escape(target.name) + (target.prefix ? '[^"]*' : '');
  const line = new RegExp(`^\\s*- (${roles}) "(${name})"(?: \\[[^\\]]*\\])*$`);
  for (const candidate of text.split('\n')) {
    const match = line.exec(candidate);
    if (match && !candidate.includes('[ref=')) return { role: match[1]!, name: match[2]! };
  }
  return undefined;
}

export function describeTarget(target: Target): string {
  return `${[target.role].flat()[0]} "${target.name}${target.prefix ? '…' : ''}"`;
}

class StepFailure extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The page's state, polled until it is the expected one or the wait is over. */
export async function settledState(page: Page, task: Task): Promise<unknown> {
  const deadline = Date.now() + STATE_WAIT_MS;
  for (;;) {
    const state: unknown = await page.evaluate(task.state).catch((error: Error) => `unreadable: ${error.message}`);
    if (same(state, task.expected) || Date.now() > deadline) return state;
    await sleep(100);
  }
}

export async function runTask(task: Task, adapter: Adapter, baseUrl: string): Promise<TaskRun> {
  const page = await adapter.open(`${baseUrl}${task.page}`);
  let chars = 0;
  let linked = 0;
  let calls = 0;
  const call = async (toolCall: ToolCall): Promise<string> => {
    calls++;
    const answer = await adapter.call(toolCall);
    chars += answer.text.length;
    linked += answer.linkedChars ?? 0;
    if (answer.isError) throw new StepFailure(`${toolCall.tool} failed: ${answer.text.slice(0, 600)}`);
    return answer.text;
  };
  const locate = async (target: Target): Promise<Handle> => {
    for (let attempt = 0; ; attempt++) {
      const found = await call(adapter.find(target));
      const ref = refFor(found, target);
      if (ref) return { ref };
      const line = target.unmarked && adapter.actsByTarget ? printedLineFor(found, target) : undefined;
      if (line) return { target: line };
      if (attempt === FIND_RETRIES) throw new StepFailure(`${describeTarget(target)} is not on the page`);
      await sleep(FIND_PAUSE_MS);
    }
  };
  try {
    await page.waitForFunction(task.ready, undefined, { timeout: 15_000, polling: 100 });
    const started = performance.now();
    let failure: string | undefined;
    try {
      for (const step of task.steps) {
        const refs: Resolved = { on: await locate(step.on) };
        if (step.do === 'drag') refs.to = await locate(step.to);
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
    const state = await settledState(page, task);
    const completed = !failure && same(state, task.expected);
    if (!completed && !failure) failure = `state ${JSON.stringify(state)}, expected ${JSON.stringify(task.expected)}`;
    return {
      task: task.id,
      completed,
      chars,
      withLinked: chars + linked,
      calls,
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
