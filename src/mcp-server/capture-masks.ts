/**
 * Which parts of a screenshot show frames the gates refused, so they can be painted over before
 * the picture leaves the panel. Chrome lists a tab's frames with their URLs; each frame's verdict
 * is the gates' (an about:blank or srcdoc frame has no URL of its own and takes the verdict of its
 * nearest ancestor that has one). The allowed frames' agents then say where their frame elements
 * are and which child each holds, and the panel walks that tree down from the top frame.
 *
 * The walk fails closed: when any frame of the tab cannot be placed in the tree as allowed (it is
 * refused, sits inside a refused frame, or did not answer), every frame element not known to hold
 * an allowed frame is masked — so a frame element whose document Tabwright never asked about is
 * covered too. A refused frame inside an allowed cross-origin frame is masked where it is, from
 * that frame's agent's rectangles offset (and scaled) by its own frame element's content box.
 * Rotated or skewed frame elements are not followed exactly: their rectangles are the bounding
 * boxes the browser reports.
 */
import type { FrameRectsReply } from '../page/protocol';
import { PageCommandError, type FrameInfo, type PagePort, type Rect } from './browser-port';
import { decidingUrl } from './page-guard';

/** Rectangles in CSS pixels of a top viewport `viewportWidth` wide (0 when there are none). */
export interface Masks {
  viewportWidth: number;
  rects: Rect[];
}

export const NO_MASKS: Masks = { viewportWidth: 0, rects: [] };

/** Frames whose URL says nothing about where their content came from. */
const INHERITS = /^about:/i;

/** Each frame's verdict, by frame id; a frame whose ancestry cannot be followed is refused. */
export async function frameVerdicts(
  frames: readonly FrameInfo[],
  allowed: (url: string) => Promise<boolean>,
): Promise<Map<number, boolean>> {
  // The same rule as every read (page-guard.ts): about:blank and srcdoc frames take the verdict of
  // their nearest ancestor with a real URL; one whose ancestry cannot be followed is refused.
  const origin = (frame: FrameInfo): FrameInfo | undefined => {
    const url = decidingUrl(frame, frames);
    return INHERITS.test(url) ? undefined : { ...frame, url };
  };
  const byUrl = new Map<string, Promise<boolean>>();
  const decide = (url: string) => {
    if (!byUrl.has(url)) byUrl.set(url, allowed(url));
    return byUrl.get(url)!;
  };
  const verdicts = await Promise.all(
    frames.map(async (frame) => {
      const source = origin(frame);
      return [frame.frameId, source ? await decide(source.url) : false] as const;
    }),
  );
  return new Map(verdicts);
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/** Maps a frame's viewport pixels into the top viewport's. */
interface Placement {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  /** The part of the top viewport this frame can paint into. */
  clip: Rect;
}

const place = (at: Placement, rect: Rect): Rect => ({
  x: at.x + rect.x * at.scaleX,
  y: at.y + rect.y * at.scaleY,
  width: rect.width * at.scaleX,
  height: rect.height * at.scaleY,
});

/**
 * The rectangles to mask in the top viewport, from the frames Chrome lists, their verdicts and the
 * allowed frames' replies (a frame missing from `replies` did not answer).
 */
export function maskRects(
  frames: readonly FrameInfo[],
  verdicts: ReadonlyMap<number, boolean>,
  replies: ReadonlyMap<number, FrameRectsReply>,
): Rect[] {
  const top = replies.get(0);
  if (!top) throw new Error('the top frame gave no frame rectangles');
  const parentOf = new Map(frames.map((frame) => [frame.frameId, frame.parentFrameId]));
  const placed = new Set<number>([0]);
  const unmatched: Rect[] = [];
  const visit = (frameId: number, reply: FrameRectsReply, at: Placement) => {
    for (const owner of reply.frames) {
      const child = owner.frameId;
      const childReply = child === undefined ? undefined : replies.get(child);
      const content = intersect(place(at, owner.content), at.clip);
      const follow =
        child !== undefined &&
        childReply !== undefined &&
        !placed.has(child) &&
        verdicts.get(child) === true &&
        parentOf.get(child) === frameId &&
        childReply.viewport.width > 0 &&
        childReply.viewport.height > 0;
      if (!follow) {
        const box = intersect(place(at, owner.box), at.clip);
        if (box) unmatched.push(box);
        continue;
      }
      placed.add(child);
      visit(child, childReply, {
        x: at.x + owner.content.x * at.scaleX,
        y: at.y + owner.content.y * at.scaleY,
        scaleX: (at.scaleX * owner.content.width) / childReply.viewport.width,
        scaleY: (at.scaleY * owner.content.height) / childReply.viewport.height,
        // A frame scrolled out of sight paints nothing, and neither do the frames inside it.
        clip: content ?? { x: 0, y: 0, width: 0, height: 0 },
      });
    }
  };
  const viewport = { x: 0, y: 0, width: top.viewport.width, height: top.viewport.height };
  visit(0, top, { x: 0, y: 0, scaleX: 1, scaleY: 1, clip: viewport });
  const everyFramePlaced = frames.every((frame) => placed.has(frame.frameId));
  return everyFramePlaced ? [] : unmatched;
}

/**
 * The masks of one capture measured before and after it: each rectangle grows to cover both
 * positions. A different set of frame elements means the page changed under the capture.
 */
export function mergeMasks(before: Masks, after: Masks): Masks | undefined {
  if (before.rects.length !== after.rects.length) return undefined;
  const rects = before.rects.map((a, i) => {
    const b = after.rects[i]!;
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    return {
      x,
      y,
      width: Math.max(a.x + a.width, b.x + b.width) - x,
      height: Math.max(a.y + a.height, b.y + b.height) - y,
    };
  });
  return { viewportWidth: after.viewportWidth || before.viewportWidth, rects };
}

/** A scroll reaches the screen a frame or two after the page applies it; three leave room for that. */
const SCROLL_FRAMES = 3;

function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Measures a tab's masks, once per capture. The first measurement waits (bounded) for the frames'
 * introductions; later ones reuse them, so a full-page screenshot pays that wait once.
 */
export class FrameMasker {
  readonly #nonce = randomNonce();
  readonly #introduced = new Set<number>();

  constructor(
    private readonly page: PagePort,
    private readonly tabId: number,
    private readonly allowed: (url: string) => Promise<boolean>,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * `afterScroll`: the page was just scrolled. Chrome captures the last picture the tab drew, which
   * can still show the old position for a few frames; the top frame lets those pass first.
   */
  async measure(options: { afterScroll?: boolean } = {}): Promise<Masks> {
    const frames = await this.page.frames(this.tabId).catch(() => [] as FrameInfo[]);
    // Without the top frame in it, the list says nothing about which frames there are.
    if (!frames.some((frame) => frame.frameId === 0)) {
      throw new PageCommandError(
        'Chrome could not list the frames of the page, so the screenshot could not hide the ones that are not allowed; nothing was captured.',
        'frames-unknown',
      );
    }
    if (frames.length === 1) return NO_MASKS;
    const verdicts = await frameVerdicts(frames, this.allowed);
    const allowedFrames = frames.filter((frame) => verdicts.get(frame.frameId) === true);
    const fresh = allowedFrames.filter((frame) => !this.#introduced.has(frame.frameId));
    // A document's agent hears its children's introductions only once it is there: start every agent first.
    await Promise.all(
      fresh.map((frame) =>
        this.page.run(this.tabId, { op: 'viewport' }, { frameId: frame.frameId, signal: this.signal }).catch(() => {}),
      ),
    );
    const childrenOf = (frameId: number) =>
      fresh.filter((frame) => frame.frameId !== 0 && frame.parentFrameId === frameId).map((frame) => frame.frameId);
    const answers = await Promise.all(
      allowedFrames.map((frame) =>
        this.page
          .run(
            this.tabId,
            {
              op: 'frameRects',
              frameId: frame.frameId,
              nonce: this.#nonce,
              childFrames: childrenOf(frame.frameId),
              afterFrames: frame.frameId === 0 && options.afterScroll ? SCROLL_FRAMES : 0,
            },
            { frameId: frame.frameId, signal: this.signal },
          )
          .then(
            (reply) => [frame.frameId, reply] as const,
            (error: unknown) => {
              if (frame.frameId === 0 || this.signal.aborted) throw error;
              return undefined;
            },
          ),
      ),
    );
    for (const frame of fresh) this.#introduced.add(frame.frameId);
    const replies = new Map(answers.filter((answer) => answer !== undefined));
    if (!replies.has(0)) {
      throw new PageCommandError(
        'The page did not say where its frames are, so the screenshot could not hide the ones that are not allowed; nothing was captured.',
        'frames-unknown',
      );
    }
    return { viewportWidth: replies.get(0)!.viewport.width, rects: maskRects(frames, verdicts, replies) };
  }
}
