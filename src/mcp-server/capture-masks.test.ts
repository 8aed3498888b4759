import { describe, expect, it } from 'vitest';
import type { FrameRectsReply } from '../page/protocol';
import type { FrameInfo, Rect } from './browser-port';
import { FrameMasker, frameVerdicts, maskRects, mergeMasks } from './capture-masks';
import { fakeBrowser, type FakeBrowser } from './gates/fake-browser';
import { PageGuard } from './page-guard';

const ALLOWED = 'https://shop.example';
const allowed = async (url: string) => url.startsWith(ALLOWED) || url.startsWith('https://cdn.example');

const rect = (x: number, y: number, width: number, height: number): Rect => ({ x, y, width, height });
/** A frame element with no border or padding: its content box is its border box. */
const owner = (box: Rect, frameId?: number) => ({ ...(frameId === undefined ? {} : { frameId }), box, content: box });
const reply = (frames: FrameRectsReply['frames'], width = 1000, height = 800): FrameRectsReply => ({
  viewport: { width, height },
  frames,
});
const frame = (frameId: number, parentFrameId: number, url: string): FrameInfo => ({ frameId, parentFrameId, url });

describe('frameVerdicts', () => {
  it('decides each frame by its URL; about:blank and srcdoc frames take their nearest real ancestor’s verdict', async () => {
    const frames = [
      frame(0, -1, `${ALLOWED}/`),
      frame(1, 0, 'about:blank'),
      frame(2, 0, 'https://bank.example/card'),
      frame(3, 2, 'about:blank'),
      frame(4, 3, 'about:srcdoc'),
      frame(5, 2, 'https://cdn.example/widget'),
      frame(6, 1, 'about:srcdoc'),
    ];
    expect(Object.fromEntries(await frameVerdicts(frames, allowed))).toEqual({
      0: true,
      1: true,
      2: false,
      3: false,
      4: false,
      5: true,
      6: true,
    });
  });

  it('refuses an about:blank frame whose ancestry cannot be followed, or loops', async () => {
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 9, 'about:blank'), frame(2, 3, 'about:blank')];
    frames.push(frame(3, 2, 'about:blank'));
    const verdicts = await frameVerdicts(frames, allowed);
    expect([verdicts.get(1), verdicts.get(2), verdicts.get(3)]).toEqual([false, false, false]);
    expect((await frameVerdicts([frame(0, -1, 'about:blank')], allowed)).get(0)).toBe(false);
  });

  it('asks the gates once per URL', async () => {
    const asked: string[] = [];
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 0, `${ALLOWED}/ad`), frame(2, 0, `${ALLOWED}/ad`)];
    await frameVerdicts(frames, async (url) => (asked.push(url), true));
    expect(asked.sort()).toEqual([`${ALLOWED}/`, `${ALLOWED}/ad`]);
  });
});

describe('maskRects', () => {
  const verdictsOf = (frames: FrameInfo[]) => frameVerdicts(frames, allowed);

  it('masks nothing when every frame is allowed and placed', async () => {
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 0, `${ALLOWED}/child`)];
    const replies = new Map([
      [0, reply([owner(rect(10, 10, 200, 100), 1)])],
      [1, reply([], 200, 100)],
    ]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([]);
  });

  it('masks the element of a refused frame, and with it every frame element not known to hold an allowed frame', async () => {
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 0, `${ALLOWED}/child`), frame(2, 0, 'https://bank.example/')];
    const replies = new Map([
      [0, reply([owner(rect(10, 10, 200, 100), 1), owner(rect(300, 10, 200, 100)), owner(rect(600, 10, 50, 50))])],
      [1, reply([], 200, 100)],
    ]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([
      rect(300, 10, 200, 100),
      rect(600, 10, 50, 50),
    ]);
  });

  it('masks a refused frame nested in an allowed frame where it shows: offset, scaled and clipped by its parent', async () => {
    const frames = [
      frame(0, -1, `${ALLOWED}/`),
      frame(1, 0, 'https://cdn.example/widget'),
      frame(2, 1, 'https://bank.example/'),
    ];
    // The widget's element is drawn at half size (400x300 CSS pixels showing an 800x600 viewport).
    const replies = new Map([
      [0, reply([{ frameId: 1, box: rect(90, 90, 420, 320), content: rect(100, 100, 400, 300) }])],
      [1, reply([owner(rect(40, 60, 200, 100)), owner(rect(700, 500, 400, 400))], 800, 600)],
    ]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([
      rect(120, 130, 100, 50),
      // Only the part inside the widget's content box shows.
      rect(450, 350, 50, 50),
    ]);
  });

  it('masks an allowed frame’s whole element when that frame did not answer', async () => {
    const frames = [
      frame(0, -1, `${ALLOWED}/`),
      frame(1, 0, 'https://cdn.example/widget'),
      frame(2, 1, 'https://bank.example/'),
    ];
    const replies = new Map([[0, reply([owner(rect(100, 100, 400, 300), 1)])]]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([rect(100, 100, 400, 300)]);
  });

  it('does not follow a claim to a refused frame, a frame of another parent, or a frame placed already', async () => {
    const frames = [
      frame(0, -1, `${ALLOWED}/`),
      frame(1, 0, `${ALLOWED}/a`),
      frame(2, 1, `${ALLOWED}/b`),
      frame(3, 0, 'https://bank.example/'),
    ];
    const replies = new Map([
      [
        0,
        reply([
          owner(rect(0, 0, 100, 100), 1),
          owner(rect(0, 200, 100, 100), 1),
          owner(rect(0, 400, 100, 100), 2),
          owner(rect(0, 600, 100, 100), 3),
        ]),
      ],
      [1, reply([], 100, 100)],
      [2, reply([], 100, 100)],
      [3, reply([], 100, 100)],
    ]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([
      rect(0, 200, 100, 100),
      rect(0, 400, 100, 100),
      rect(0, 600, 100, 100),
    ]);
  });

  it('keeps masks inside the top viewport and drops the ones out of sight', async () => {
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 0, 'https://bank.example/')];
    const replies = new Map([[0, reply([owner(rect(900, -50, 200, 100)), owner(rect(0, 900, 100, 100))])]]);
    expect(maskRects(frames, await verdictsOf(frames), replies)).toEqual([rect(900, 0, 100, 50)]);
  });

  it('refuses to guess without the top frame’s answer', async () => {
    const frames = [frame(0, -1, `${ALLOWED}/`), frame(1, 0, 'https://bank.example/')];
    expect(() => maskRects(frames, new Map([[0, true]]), new Map())).toThrow();
  });
});

describe('mergeMasks', () => {
  it('grows each mask over where its frame was before and after the capture', () => {
    const before = { viewportWidth: 1000, rects: [rect(10, 10, 100, 100)] };
    const after = { viewportWidth: 1000, rects: [rect(30, 0, 100, 100)] };
    expect(mergeMasks(before, after)).toEqual({ viewportWidth: 1000, rects: [rect(10, 0, 120, 110)] });
  });

  it('gives up when frames came or went', () => {
    expect(mergeMasks({ viewportWidth: 1000, rects: [] }, { viewportWidth: 1000, rects: [rect(0, 0, 1, 1)] })).toBe(
      undefined,
    );
  });
});

/** The page port tools get: the fake page behind the gates' decision. */
const guarded = (browser: FakeBrowser) =>
  new PageGuard(browser.page, async (url) => ((await allowed(url)) ? undefined : 'Refused: not allowed.'));

describe('FrameMasker', () => {
  const tab = { id: 1, windowId: 1, url: `${ALLOWED}/`, title: 'Shop', active: true, loading: false };
  const signal = new AbortController().signal;

  it('runs nothing in a page without frames', async () => {
    const browser = fakeBrowser([tab]);
    browser.frameList = [frame(0, -1, `${ALLOWED}/`)];
    const masks = await new FrameMasker(guarded(browser), 1, allowed, signal).measure();
    expect(masks.rects).toEqual([]);
    expect(browser.commands).toEqual([]);
  });

  it('asks only allowed frames, and waits for their introductions only the first time', async () => {
    const browser = fakeBrowser([tab]);
    browser.frameList = [
      frame(0, -1, `${ALLOWED}/`),
      frame(1, 0, `${ALLOWED}/a`),
      frame(2, 0, 'https://bank.example/'),
    ];
    browser.frameRects.set(0, reply([owner(rect(0, 0, 100, 100), 1), owner(rect(0, 200, 100, 100))]));
    browser.frameRects.set(1, reply([], 100, 100));
    const sent: Array<{ frameId?: number; op: string; childFrames?: number[] }> = [];
    const send = browser.page.send.bind(browser.page);
    browser.page.send = (tabId, command, options) => {
      sent.push({
        frameId: options?.frameId,
        op: command.op,
        ...('childFrames' in command ? { childFrames: command.childFrames } : {}),
      });
      return send(tabId, command, options);
    };
    const masker = new FrameMasker(guarded(browser), 1, allowed, signal);
    expect(await masker.measure()).toEqual({ viewportWidth: 1000, rects: [rect(0, 200, 100, 100)] });
    expect(sent.filter((s) => s.op === 'frameRects')).toEqual([
      { frameId: 0, op: 'frameRects', childFrames: [1] },
      { frameId: 1, op: 'frameRects', childFrames: [] },
    ]);
    expect(sent.some((s) => s.frameId === 2)).toBe(false);
    sent.length = 0;
    await masker.measure();
    expect(sent).toEqual([
      { frameId: 0, op: 'frameRects', childFrames: [] },
      { frameId: 1, op: 'frameRects', childFrames: [] },
    ]);
  });

  it('fails, rather than leave a refused frame showing, when the top frame cannot say where its frames are', async () => {
    const browser = fakeBrowser([tab]);
    browser.frameList = [frame(0, -1, `${ALLOWED}/`), frame(2, 0, 'https://bank.example/')];
    await expect(new FrameMasker(guarded(browser), 1, allowed, signal).measure()).rejects.toThrow();
  });

  it('fails when Chrome cannot list the frames', async () => {
    const browser = fakeBrowser([tab]);
    browser.page.frames = () => Promise.reject(new Error('no frames'));
    await expect(new FrameMasker(guarded(browser), 1, allowed, signal).measure()).rejects.toThrow(
      /nothing was captured/,
    );
    browser.page.frames = async () => [];
    await expect(new FrameMasker(guarded(browser), 1, allowed, signal).measure()).rejects.toThrow(
      /nothing was captured/,
    );
  });
});
