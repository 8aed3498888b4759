import type { z } from 'zod';
import type { PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { revealed, watchingTimers } from '../actions/hover-reveal';
import { movePointer } from '../actions/pointer';
import { actionable, runAction } from '../actions/run-action';
import type { HoverCommand } from '../protocol';

/**
 * Moves the pointer onto the element, so hover menus and tooltips open (CSS `:hover` included),
 * and waits for what the page's hover timers reveal before the page settles.
 */
export function runHover(command: z.output<typeof HoverCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const element = env.resolveTarget(command.target);
    const point = await actionable(element, 'hover over', { hitTest: true }, signal);
    const record = env.pageRecord();
    watchingTimers(record, env.document, () => movePointer(point.hit, point.x, point.y));
    await revealed(record, env.document, signal);
    return `Hovering over ${describeElement(element)}`;
  });
}
