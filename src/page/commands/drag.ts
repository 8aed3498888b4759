import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { composedContains, composedParent, deepElementFromPoint, type ActionPoint } from '../actions/actionability';
import { describeElement } from '../actions/describe';
import { DragOver, fireDrag } from '../actions/drag-drop';
import { movePointer, pressLeft, releaseLeft } from '../actions/pointer';
import { actionable, runAction } from '../actions/run-action';
import { nextBeat } from '../actions/timing';
import type { DragCommand } from '../protocol';

/** Moves between press and release: libraries that follow the pointer see a path, not a jump. */
const STEPS = 10;
/** Browsers start a native drag once the held pointer has moved a few pixels. */
const DRAG_START_PX = 5;

/** The element a native drag would carry: the nearest draggable one from the press point up. */
function draggableAt(hit: Element): HTMLElement | undefined {
  for (let node: Node | null = hit; node; node = composedParent(node)) {
    if (node instanceof HTMLElement && node.draggable) return node;
  }
  return undefined;
}

function pathPoint(from: ActionPoint, to: ActionPoint, step: number) {
  return {
    x: Math.round(from.x + ((to.x - from.x) * step) / STEPS),
    y: Math.round(from.y + ((to.y - from.y) * step) / STEPS),
  };
}

/** The source's centre again, after the target was scrolled into view; refused when the two do not fit on screen. */
function sourcePoint(source: Element, at: ActionPoint): ActionPoint {
  const view = source.ownerDocument.defaultView!;
  const box = source.getBoundingClientRect();
  const x = Math.round(box.left + box.width / 2);
  const y = Math.round(box.top + box.height / 2);
  if (x < 0 || y < 0 || x > view.innerWidth || y > view.innerHeight) {
    throw new PageError(
      `${describeElement(source)} and the drop target do not fit on the screen together, so nothing was dragged. ` +
        'Scroll so that both are visible, or drop onto a nearer target.',
      'not-actionable:visible',
    );
  }
  const hit = deepElementFromPoint(source.ownerDocument, x, y);
  return { x, y, hit: hit && composedContains(source, hit) ? hit : at.hit };
}

async function beats(count: number, signal: AbortSignal) {
  for (let i = 0; i < count; i++) await nextBeat(signal);
}

/**
 * HTML5 drag and drop: dragstart on the draggable element, dragover along the path, a drop where
 * the page accepts one, dragend. Undefined when the page cancelled dragstart: it drags by pointer.
 */
async function nativeDrag(draggable: HTMLElement, from: ActionPoint, to: ActionPoint, signal: AbortSignal) {
  const dataTransfer = new DataTransfer();
  movePointer(from.hit, from.x + DRAG_START_PX, from.y, 1);
  if (fireDrag(draggable, 'dragstart', from, dataTransfer)) return undefined;
  // The page no longer gets pointer events once the browser has taken the drag over.
  from.hit.dispatchEvent(
    new PointerEvent('pointercancel', {
      bubbles: true,
      composed: true,
      pointerId: 1,
      isPrimary: true,
      pointerType: 'mouse',
    }),
  );
  await nextBeat(signal);
  const over = new DragOver(draggable.ownerDocument, dataTransfer);
  for (let step = 1; step <= STEPS; step++) {
    const at = pathPoint(from, to, step);
    fireDrag(draggable, 'drag', at, dataTransfer);
    over.moveTo(at);
    await nextBeat(signal);
  }
  const dropped = over.release(to);
  fireDrag(draggable, 'dragend', to, dataTransfer);
  return dropped;
}

/** A drag by pointer, for libraries that follow pointermove with the button held (SortableJS fallback, dnd-kit). */
async function pointerDrag(document: Document, from: ActionPoint, to: ActionPoint, signal: AbortSignal, first = 1) {
  for (let step = first; step <= STEPS; step++) {
    const at = pathPoint(from, to, step);
    movePointer(deepElementFromPoint(document, at.x, at.y) ?? to.hit, at.x, at.y, 1);
    await beats(2, signal);
  }
  releaseLeft(deepElementFromPoint(document, to.x, to.y) ?? to.hit, to.x, to.y);
  await beats(2, signal);
}

export function runDrag(command: z.output<typeof DragCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const source = env.resolveTarget(command.source);
    const target = env.resolveTarget(command.to);
    if (source === target) throw new PageError('The source and the drop target are the same element.', 'bad-value');
    const sourceName = describeElement(source);
    const targetName = describeElement(target);
    const start = await actionable(source, 'drag', { hitTest: true }, signal);
    const to = await actionable(target, 'drop onto', { hitTest: true }, signal);
    const from = sourcePoint(source, start);
    movePointer(from.hit, from.x, from.y);
    const pressed = pressLeft(from.hit, from.x, from.y);
    // Libraries make the element draggable on the press (SortableJS) or start their own drag on it.
    await nextBeat(signal);
    const draggable = pressed ? draggableAt(from.hit) : undefined;
    const done = `Dragged ${sourceName} onto ${targetName}`;
    if (draggable) {
      const dropped = await nativeDrag(draggable, from, to, signal);
      if (dropped !== undefined) {
        return dropped ? `${done} (drag and drop)` : `${done}, but the page did not take the drop there`;
      }
    }
    await pointerDrag(env.document, from, to, signal, draggable ? 2 : 1);
    return `${done} (with the mouse button held)`;
  });
}
