/**
 * The animations the wait after an action follows: a dialog fading in, a menu sliding open, a
 * backdrop whose fade the page waits out before it shows what the action asked for (Bootstrap's
 * modal appears only once its backdrop's fade has ended). The DOM is quiet while they run, yet the
 * page is not done, and an answer read then shows nothing of it. Followed: an animation or
 * transition that started since the action began, moves or shows something, and ends within
 * `LONGEST_FOLLOWED_MS`. Not followed: an endless one (a spinner), a long one (a progress bar), a
 * colour or shadow easing on hover, a press's ripple (drawn in a pseudo-element, or in an empty
 * element inside the control pressed), or any in a hidden tab, which draws no frames to end them
 * (hidden-frames.ts says so in the result instead).
 */
import { animatedProperties, ending, showsOrMoves } from './animations';
import { composedParent } from './composed-tree';

/** A longer animation is the page's own pace, not the action's effect coming. */
export const LONGEST_FOLLOWED_MS = 1_000;

/** What a press draws on the control itself: a ripple shows nothing the page had not shown. */
const CONTROL =
  'button, a[href], label, summary, input, select, textarea, [role=button], [role=link], [role=tab], ' +
  '[role=menuitem], [role=option], [role=checkbox], [role=radio], [role=switch]';

function insideControl(element: Element): boolean {
  for (let at: Node | null = element; at; at = composedParent(at))
    if (at instanceof Element && at.matches(CONTROL)) return true;
  return false;
}

function decoration(animation: Animation): boolean {
  const effect = animation.effect as (KeyframeEffect & { pseudoElement?: string | null }) | null;
  if (effect?.pseudoElement) return true;
  const target = effect?.target;
  if (!target || target.childElementCount > 0 || target.textContent?.trim()) return false;
  return insideControl(target);
}

/** How much longer `animation` runs, when it is one to follow. */
export function followedFor(animation: Animation): number | undefined {
  if (!ending(animation)) return undefined;
  if (!animatedProperties(animation).some(showsOrMoves)) return undefined;
  if (decoration(animation)) return undefined;
  const timing = animation.effect!.getComputedTiming();
  const elapsed = typeof timing.localTime === 'number' ? timing.localTime : 0;
  const left = ((timing.endTime as number) - elapsed) / Math.abs(animation.playbackRate || 1);
  return left <= LONGEST_FOLLOWED_MS ? Math.max(0, left) : undefined;
}

type Animated = Pick<Document, 'visibilityState'> & { getAnimations?: () => Animation[] };

export class AnimationWatch {
  /** There before the action, or seen and not followed: passed over from then on. */
  readonly #passed: Set<Animation>;
  /** When each followed animation is due to end, by `performance.now()`: its own clock may stall. */
  readonly #ends = new Map<Animation, number>();

  constructor(private readonly doc: Animated) {
    this.#passed = new Set(this.#animations());
  }

  #animations(): Animation[] {
    if (this.doc.visibilityState !== 'visible' || typeof this.doc.getAnimations !== 'function') return [];
    return this.doc.getAnimations();
  }

  /** Whether an animation the action set off is still on its way at `now`. */
  running(now: number): boolean {
    let running = false;
    for (const animation of this.#animations()) {
      if (this.#passed.has(animation)) continue;
      let end = this.#ends.get(animation);
      if (end === undefined) {
        const left = followedFor(animation);
        if (left === undefined) {
          this.#passed.add(animation);
          continue;
        }
        end = now + left;
        this.#ends.set(animation, end);
      }
      if (now < end && animation.playState === 'running') running = true;
    }
    return running;
  }
}
