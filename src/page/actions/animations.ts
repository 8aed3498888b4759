/**
 * What the hands ask of a page's running animations and transitions: whether one will end, and
 * what it changes. Read from this world's own `getAnimations`, which the page cannot replace.
 */

/** An animation that will end: an endless one (a spinner) is not what an action waits on. */
export function ending(animation: Animation): boolean {
  if (animation.playState !== 'running') return false;
  const end = animation.effect?.getComputedTiming().endTime;
  return typeof end === 'number' && Number.isFinite(end);
}

/** What every keyframe carries besides the properties it sets. */
const KEYFRAME_FIELDS = new Set(['offset', 'computedOffset', 'easing', 'composite']);

/** The CSS properties `animation` changes, lower case without hyphens (`margin-left` is `marginleft`). */
export function animatedProperties(animation: Animation): string[] {
  const transition = (animation as Animation & { transitionProperty?: string }).transitionProperty;
  if (typeof transition === 'string') return [normalised(transition)];
  const effect = animation.effect as KeyframeEffect | null;
  if (!effect || typeof effect.getKeyframes !== 'function') return [];
  return effect
    .getKeyframes()
    .flatMap((frame) => Object.keys(frame).filter((key) => !KEYFRAME_FIELDS.has(key)))
    .map(normalised);
}

/** CSS names and keyframe keys compared alike: `margin-top` and `marginTop` both become `margintop`. */
function normalised(name: string): string {
  return name.replace(/-/g, '').toLowerCase();
}

/** A property whose change moves or resizes a box: what makes a point picked now miss later. */
export function movesBox(property: string): boolean {
  return (
    /^(transform|translate|rotate|scale|top|right|bottom|left|(min|max)?(width|height))$/.test(property) ||
    /^(inset|margin|offset)./.test(property) ||
    property === 'inset' ||
    property === 'margin'
  );
}

/** A property whose change shows, hides, moves or resizes something: what an answer would show. */
export function showsOrMoves(property: string): boolean {
  return movesBox(property) || /^(opacity|visibility|display|clippath)$/.test(property);
}
