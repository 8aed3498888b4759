import { focusElement } from '../actions/focus';
import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { shownEditor } from '../actions/edit-context';
import { pressKey } from '../actions/key-press';
import { describeKeyPress, KeyNameError, parseKeyCombo, type KeyPress } from '../actions/keyboard';
import { actionable, runAction } from '../actions/run-action';
import type { PressKeyCommand } from '../protocol';

function platform(view: Window | null): 'mac' | 'other' {
  return /Mac/i.test(view?.navigator.platform ?? '') ? 'mac' : 'other';
}

/** Presses a key (with modifiers) on an element, or on whatever has focus. */
export function runPressKey(command: z.output<typeof PressKeyCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    let press: KeyPress;
    try {
      press = parseKeyCombo(command.key, platform(env.document.defaultView));
    } catch (error) {
      if (error instanceof KeyNameError) throw new PageError(error.message, 'bad-key');
      throw error;
    }
    let target: Element;
    if (command.target) {
      target = env.resolveTarget(command.target);
      await actionable(shownEditor(target), 'press a key on', {}, signal);
      if (target instanceof HTMLElement) focusElement(target);
    } else {
      target = env.document.activeElement ?? env.document.body ?? env.document.documentElement;
    }
    const described = target === env.document.body ? 'the page' : describeElement(target);
    const pressed = pressKey(target, press);
    let line = `Pressed ${describeKeyPress(press)} on ${described}`;
    if (pressed.effect) line += `; ${pressed.effect}`;
    else if (pressed.handledByPage) line += '; the page handled the key';
    return line;
  });
}
