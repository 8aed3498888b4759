import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { actionable, runAction } from '../actions/run-action';
import {
  describePosition,
  pageScroller,
  positionOf,
  scrollByAmount,
  scrollerFor,
  scrollToEdge,
} from '../actions/scrolling';
import type { ScrollCommand } from '../protocol';

/** Scrolls an element into view, or the page (or an element's scrolling container) by an amount or to an end. */
export function runScroll(command: z.output<typeof ScrollCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const element = command.target ? env.resolveTarget(command.target) : undefined;
    if (element && !command.to && !command.direction) {
      await actionable(element, 'scroll to', {}, signal);
      element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      return `Scrolled ${describeElement(element)} into view`;
    }
    const document = env.document;
    const scroller = element ? scrollerFor(element) : pageScroller(document);
    const isPage = scroller === (document.scrollingElement ?? document.documentElement);
    const name = isPage ? 'the page' : describeElement(scroller);
    const before = positionOf(scroller);
    let how: string;
    if (command.to) {
      scrollToEdge(scroller, command.to);
      how = `to the ${command.to}`;
    } else {
      const direction = command.direction ?? 'down';
      const vertical = direction === 'up' || direction === 'down';
      const size = vertical ? scroller.clientHeight || window.innerHeight : scroller.clientWidth || window.innerWidth;
      const amount = Math.round(command.amount ?? size * 0.8);
      const sign = direction === 'up' || direction === 'left' ? -1 : 1;
      scrollByAmount(scroller, vertical ? 0 : sign * amount, vertical ? sign * amount : 0);
      how = `${direction} by ${amount} px`;
    }
    const after = positionOf(scroller);
    if (after.top === before.top && after.left === before.left) {
      if (before.maxTop === 0 && before.maxLeft === 0) {
        throw new PageError(`${name} does not scroll: everything already fits. Nothing moved.`, 'no-scroll');
      }
      return `Did not scroll ${name} ${how}: it is already ${describePosition(after)}`;
    }
    return `Scrolled ${name} ${how}; now ${describePosition(after)}`;
  });
}
