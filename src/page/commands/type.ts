import type { z } from 'zod';
import type { PageEnv } from '../env';
import { describeElement, quoteText } from '../actions/describe';
import { shownEditor } from '../actions/edit-context';
import { fieldFor } from '../actions/fields';
import { isSecretField } from '../secret-field';
import { actionable, runAction } from '../actions/run-action';
import { checkTypable, typeText, valueIfChanged } from '../actions/text-entry';
import type { TypeCommand } from '../protocol';

/** Types into a field; values of password fields never appear in the result. */
export function runType(command: z.output<typeof TypeCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const field = fieldFor(env.resolveTarget(command.target));
    checkTypable(field, command.text);
    await actionable(shownEditor(field), 'type into', { enabled: true, editable: true }, signal);
    const secret = isSecretField(field);
    const described = describeElement(field);
    const typed = await typeText(field, command.text, {
      clear: command.clear,
      submit: command.submit,
      signal,
      person: env.person,
    });
    const what = secret ? `${[...command.text].length} characters (hidden)` : quoteText(command.text);
    // Written after the page settled, so a value the page rewrote (masks, upper-casing) shows as it is.
    return () => {
      let line = `Typed ${what} into ${described}`;
      const now = valueIfChanged(field, typed);
      if (now !== undefined)
        line += secret ? '; the page changed what was typed' : `; the field now holds ${quoteText(now)}`;
      if (typed.submitted) line += `; ${typed.submitted}`;
      return line;
    };
  });
}
