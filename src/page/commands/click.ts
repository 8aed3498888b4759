import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { labelStandIn, pressTargetInLabel } from '../actions/label-stand-in';
import { clickAt } from '../actions/pointer';
import { actionable, runAction } from '../actions/run-action';
import type { ClickCommand } from '../protocol';

const VERBS = { left: 'Clicked', middle: 'Middle-clicked', right: 'Right-clicked' } as const;

/** A mouse click where a person would click: the centre of the element, after the actionability checks. */
export function runClick(command: z.output<typeof ClickCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const element = env.resolveTarget(command.target);
    if (element instanceof HTMLOptionElement || element instanceof HTMLSelectElement) {
      // A native drop-down opens a browser-drawn list that page events cannot reach.
      throw new PageError(
        `${describeElement(element)} is (part of) a drop-down: use select_option on it, with the value or label.`,
        'wrong-kind',
      );
    }
    if (element instanceof HTMLInputElement && element.type === 'file') {
      throw new PageError(
        `${describeElement(element)} is a file picker: use upload_file on it, with the files.`,
        'wrong-kind',
      );
    }
    const label = labelStandIn(element);
    const point = await actionable(label ?? element, 'click', { enabled: true, hitTest: true }, signal);
    const described = describeElement(element);
    const target = label ? pressTargetInLabel(label, element, point.hit) : point.hit;
    clickAt(target, point.x, point.y, command.button, command.double);
    const verb = command.double ? 'Double-clicked' : VERBS[command.button];
    if (point.cover)
      return `${verb} ${described} where ${describeElement(point.cover)}, part of the same control, is on top of it`;
    return label ? `${verb} ${described} (through its label)` : `${verb} ${described}`;
  });
}
