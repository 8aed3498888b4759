import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { ViewportCommand } from '../protocol';

export function runViewport(command: z.output<typeof ViewportCommand>, env: PageEnv) {
  const view = env.document.defaultView ?? window;
  if (command.scrollTo) view.scrollTo({ left: command.scrollTo.x, top: command.scrollTo.y, behavior: 'instant' });
  const scroller = env.document.scrollingElement ?? env.document.documentElement;
  return {
    x: view.scrollX,
    y: view.scrollY,
    width: view.innerWidth,
    height: view.innerHeight,
    scrollWidth: scroller.scrollWidth,
    scrollHeight: scroller.scrollHeight,
    devicePixelRatio: view.devicePixelRatio,
  };
}
