import type { z } from 'zod';
import { BEAT_MS, pageClock } from '../clock';
import type { PageEnv } from '../env';
import type { FrameRectsCommand } from '../protocol';
import { HANDSHAKE_WAIT_MS } from './snapshot';

/** Every element that can show another document. */
const FRAME_OWNERS = 'iframe, frame, object, embed, fencedframe, portal';

type ShadowOpener = (element: Element) => ShadowRoot | null;

/** In the extension's world Chrome opens closed shadow roots too: a frame hidden in one is still found. */
function shadowOpener(): ShadowOpener {
  const dom = (globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: ShadowOpener } } }).chrome?.dom;
  const open = dom?.openOrClosedShadowRoot;
  return open ? (element) => open(element) ?? element.shadowRoot : (element) => element.shadowRoot;
}

function frameOwners(root: Document | ShadowRoot, shadowOf: ShadowOpener, out: Element[] = []): Element[] {
  out.push(...root.querySelectorAll(FRAME_OWNERS));
  for (const element of root.querySelectorAll('*')) {
    const shadow = shadowOf(element);
    if (shadow) frameOwners(shadow, shadowOf, out);
  }
  return out;
}

const plain = (rect: DOMRectReadOnly) => ({ x: rect.left, y: rect.top, width: rect.width, height: rect.height });

/**
 * The element's content box in viewport pixels: its border box less borders and padding, scaled
 * like the box (a CSS transform that scales or moves the element moves the child's viewport too).
 */
function contentBox(element: Element, box: DOMRectReadOnly) {
  const html = element as HTMLElement;
  const style = element.ownerDocument.defaultView?.getComputedStyle(element);
  const px = (value: string | undefined) => Number.parseFloat(value ?? '') || 0;
  const scaleX = html.offsetWidth ? box.width / html.offsetWidth : 1;
  const scaleY = html.offsetHeight ? box.height / html.offsetHeight : 1;
  const left = (html.clientLeft || 0) + px(style?.paddingLeft);
  const top = (html.clientTop || 0) + px(style?.paddingTop);
  const width = (html.clientWidth || 0) - px(style?.paddingLeft) - px(style?.paddingRight);
  const height = (html.clientHeight || 0) - px(style?.paddingTop) - px(style?.paddingBottom);
  return {
    x: box.left + left * scaleX,
    y: box.top + top * scaleY,
    width: Math.max(0, width * scaleX),
    height: Math.max(0, height * scaleY),
  };
}

/** A beat of Tabwright's clock, about a frame, which keeps time in a tab that is not in front too. */
function nextBeat(): Promise<void> {
  return new Promise((resolve) => pageClock.schedule(BEAT_MS, resolve));
}

export async function runFrameRects(command: z.output<typeof FrameRectsCommand>, env: PageEnv) {
  const { nonce, frameId } = command;
  const view = env.document.defaultView ?? window;
  env.frames.announce(nonce, frameId);
  if (command.childFrames.length) await env.frames.awaitFrames(nonce, command.childFrames, HANDSHAKE_WAIT_MS);
  for (let i = 0; i < command.afterFrames; i++) await nextBeat();
  const frames = frameOwners(env.document, shadowOpener()).map((element) => {
    const box = element.getBoundingClientRect();
    const held = env.frames.frameIn(element, nonce);
    return { ...(held === undefined ? {} : { frameId: held }), box: plain(box), content: contentBox(element, box) };
  });
  return { viewport: { width: view.innerWidth, height: view.innerHeight }, frames };
}
