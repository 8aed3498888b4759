/**
 * A tab that is not in front draws no frames: `requestAnimationFrame` callbacks wait, animations
 * and transitions do not finish, `transitionend` never comes. When an action's effect waits on
 * frames in a hidden document, the result says so and names the remedy instead of reporting the
 * page as it stands as the outcome. Frame requests come from the main-world record
 * (main-world/frame-watch.ts); animations are read from this world's own `getAnimations`, which
 * the page cannot replace.
 */
import type { RecordAsker } from '../listener-channel';
import { ending } from './animations';

/** What to do about a page that waits on frames in a hidden tab, in the agent's words. */
export const FRAMES_REMEDY =
  'To let it finish, open the page in your own window (new_tab with ownWindow: true), which draws frames ' +
  'without taking the user’s focus, or ask the user to bring this tab to the front.';

/** The animations already there when an action started: an earlier action's are not this one's. */
export interface FrameMark {
  before: Set<Animation>;
}

/** Starts noting the frames the page requests from now on (before the action's first event). */
export function markFrames(record: RecordAsker | undefined, doc: Document): FrameMark {
  record?.(doc, 'frames:mark');
  return { before: new Set(doc.visibilityState === 'hidden' ? doc.getAnimations() : []) };
}

/**
 * What the hidden document still waits on since `mark`, in words, or undefined when it is shown
 * or waits on nothing.
 */
export function framesHeldBack(record: RecordAsker | undefined, doc: Document, mark: FrameMark): string | undefined {
  if (doc.visibilityState !== 'hidden') return undefined;
  const waiting: string[] = [];
  const animations = doc.getAnimations().filter((animation) => !mark.before.has(animation) && ending(animation)).length;
  if (animations)
    waiting.push(
      `${animations} animation${animations === 1 ? '' : 's'} or transition${animations === 1 ? '' : 's'} not finished`,
    );
  if (record?.(doc, 'frames:pending'))
    waiting.push('callbacks it asked to run on the next frame (requestAnimationFrame)');
  if (!waiting.length) return undefined;
  return (
    `This tab is not in front, so Chrome draws no frames for it, and the page is waiting on frames ` +
    `(${waiting.join('; ')}): what the action set off may not have finished. ${FRAMES_REMEDY}`
  );
}
