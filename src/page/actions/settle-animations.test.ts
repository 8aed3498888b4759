// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { AnimationWatch, followedFor, LONGEST_FOLLOWED_MS } from './settle-animations';

interface Fake {
  property?: string;
  target?: Element | null;
  pseudoElement?: string | null;
  keyframes?: Array<Record<string, unknown>>;
  endTime?: number;
  localTime?: number | null;
  playState?: AnimationPlayState;
}

/** Just what the watch reads of an Animation (a CSSTransition when `property` is given). */
function animation({
  property,
  target = null,
  pseudoElement = null,
  keyframes = [],
  endTime = 300,
  localTime = 0,
  playState = 'running',
}: Fake) {
  return {
    playState,
    playbackRate: 1,
    ...(property === undefined ? {} : { transitionProperty: property }),
    effect: {
      target,
      pseudoElement,
      getComputedTiming: () => ({ endTime, localTime }),
      getKeyframes: () => keyframes,
    },
  } as unknown as Animation;
}

describe('followedFor', () => {
  it('follows a short fade, slide or resize for the time it has left', () => {
    expect(followedFor(animation({ property: 'opacity', endTime: 150, localTime: 50 }))).toBe(100);
    expect(followedFor(animation({ property: 'max-height', endTime: 350 }))).toBe(350);
    expect(followedFor(animation({ keyframes: [{ transform: 'translateY(8px)', offset: 0 }], endTime: 200 }))).toBe(
      200,
    );
    expect(followedFor(animation({ keyframes: [{ clipPath: 'inset(0 0 100% 0)' }], endTime: 250 }))).toBe(250);
  });

  it('passes over a press’s ripple, and follows an empty backdrop that is no control’s', () => {
    document.body.innerHTML =
      '<button>Save<span class="ripple"></span></button><div class="backdrop"></div><div class="menu">Open</div>';
    const [ripple, backdrop, menu] = ['.ripple', '.backdrop', '.menu'].map((s) => document.querySelector(s)!);
    expect(followedFor(animation({ property: 'opacity', target: ripple }))).toBeUndefined();
    expect(
      followedFor(animation({ keyframes: [{ transform: 'scale(1)' }], pseudoElement: '::after' })),
    ).toBeUndefined();
    expect(followedFor(animation({ property: 'opacity', target: backdrop }))).toBe(300);
    expect(followedFor(animation({ property: 'opacity', target: menu }))).toBe(300);
    const host = document.createElement('div');
    host.setAttribute('role', 'button');
    const inShadow = document.createElement('span');
    host.attachShadow({ mode: 'open' }).append(inShadow);
    document.body.append(host);
    expect(followedFor(animation({ property: 'opacity', target: inShadow }))).toBeUndefined();
  });

  it('passes over colour easing, endless and long animations, and ones not running', () => {
    expect(followedFor(animation({ property: 'background-color' }))).toBeUndefined();
    expect(followedFor(animation({ keyframes: [{ color: 'red' }] }))).toBeUndefined();
    expect(followedFor(animation({ property: 'opacity', endTime: Infinity }))).toBeUndefined();
    expect(followedFor(animation({ property: 'opacity', endTime: LONGEST_FOLLOWED_MS + 1 }))).toBeUndefined();
    expect(followedFor(animation({ property: 'opacity', playState: 'paused' }))).toBeUndefined();
  });
});

describe('AnimationWatch', () => {
  it('follows only what started since it began, until it ends by the clock it was given', () => {
    const before = animation({ property: 'opacity' });
    const animations = [before];
    const doc = { visibilityState: 'visible' as DocumentVisibilityState, getAnimations: () => animations };
    const watch = new AnimationWatch(doc);
    expect(watch.running(0)).toBe(false);
    animations.push(animation({ property: 'opacity', endTime: 150 }));
    expect(watch.running(10)).toBe(true);
    // Its own clock may stand still (no frame came): the time it had left when first seen decides.
    expect(watch.running(159)).toBe(true);
    expect(watch.running(160)).toBe(false);
  });

  it('follows nothing in a hidden document, which draws no frames to end it', () => {
    const animations: Animation[] = [];
    const watch = new AnimationWatch({ visibilityState: 'hidden', getAnimations: () => animations });
    animations.push(animation({ property: 'opacity' }));
    expect(watch.running(0)).toBe(false);
  });
});
