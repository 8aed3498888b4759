/** Lets the browser run other tasks (paint, input) before the next step. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs module loads one after another, each followed by a return to the event loop, so no two
 * steps share a task. A failed step rejects: the panel cannot start without its code.
 */
export async function loadInSteps(steps: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  for (const step of steps) {
    await step();
    await nextTask();
  }
  await nextTask();
}
