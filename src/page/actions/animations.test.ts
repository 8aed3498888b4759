import { describe, expect, it } from 'vitest';
import { animatedProperties, ending, movesBox, showsOrMoves } from './animations';

function keyframed(keyframes: Array<Record<string, unknown>>, endTime = 300, playState = 'running') {
  return {
    playState,
    effect: { getKeyframes: () => keyframes, getComputedTiming: () => ({ endTime }) },
  } as unknown as Animation;
}

describe('animatedProperties', () => {
  it('names what a keyframe animation sets, without the fields every keyframe carries', () => {
    const pulse = keyframed([
      { offset: 0, computedOffset: 0, easing: 'ease', composite: 'auto', backgroundColor: 'red' },
      { offset: 1, computedOffset: 1, easing: 'ease', composite: 'auto', backgroundColor: 'blue' },
    ]);
    expect(animatedProperties(pulse)).toEqual(['backgroundcolor', 'backgroundcolor']);
    expect(animatedProperties(pulse).some(movesBox)).toBe(false);
  });

  it('names a transition by its property, as CSS spells it or as script does', () => {
    const slide = { transitionProperty: 'margin-left', effect: null } as unknown as Animation;
    expect(animatedProperties(slide)).toEqual(['marginleft']);
  });
});

describe('movesBox and showsOrMoves', () => {
  it('tells what moves a box from what only shows or hides it, and from what only recolours it', () => {
    for (const moving of [
      'transform',
      'translate',
      'left',
      'insetblockstart',
      'margintop',
      'maxheight',
      'offsetdistance',
    ])
      expect(movesBox(moving), moving).toBe(true);
    for (const still of ['opacity', 'backgroundcolor', 'boxshadow', 'color', 'offset', 'backgroundposition'])
      expect(movesBox(still), still).toBe(false);
    for (const shown of ['opacity', 'visibility', 'display', 'clippath', 'transform'])
      expect(showsOrMoves(shown), shown).toBe(true);
    expect(showsOrMoves('boxshadow')).toBe(false);
  });
});

describe('ending', () => {
  it('is true of a running animation with an end, false of an endless or a finished one', () => {
    expect(ending(keyframed([], 300))).toBe(true);
    expect(ending(keyframed([], Infinity))).toBe(false);
    expect(ending(keyframed([], 300, 'finished'))).toBe(false);
  });
});
