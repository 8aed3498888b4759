import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement, quoteText } from '../actions/describe';
import { fieldFor, fieldKind } from '../actions/fields';
import { labelStandIn } from '../actions/label-stand-in';
import { isSecretField } from '../secret-field';
import { applyOptions, chooseOptions, parseChecked, setChecked } from '../actions/options';
import { actionable, runAction } from '../actions/run-action';
import { submitFromField } from '../actions/submit';
import { checkTypable, typeText, valueIfChanged } from '../actions/text-entry';
import { nextBeat, yieldToPage } from '../actions/timing';
import type { FieldValue, FillFormCommand } from '../protocol';

type Value = z.output<typeof FieldValue>;

interface Planned {
  field: Element;
  described: string;
  secret: boolean;
  /** Sets the value; returns how to describe it once the page has settled. */
  apply(signal: AbortSignal): Promise<() => string>;
}

function asText(value: Value, field: Element): string {
  if (typeof value === 'string') return value;
  throw new PageError(`${describeElement(field)} takes text; give the value as a string.`, 'bad-value');
}

/** Works out how each value reaches its field, refusing bad values before anything changes. */
function plan(field: Element, value: Value): Planned {
  const described = describeElement(field);
  const secret = isSecretField(field);
  const kind = fieldKind(field);
  if (kind === 'checkable') {
    const input = field as HTMLInputElement;
    if (Array.isArray(value)) throw new PageError(`${described} takes true or false.`, 'bad-value');
    const checked = parseChecked(value, input);
    if (!checked && input.type === 'radio' && input.checked) {
      throw new PageError(`${described} is a radio button: choose another option in its group instead.`, 'bad-value');
    }
    const word = checked ? 'checked' : 'unchecked';
    return { field, described, secret, apply: async () => (setChecked(input, checked), () => word) };
  }
  if (kind === 'select') {
    const select = field as HTMLSelectElement;
    const wanted = Array.isArray(value) ? value : [String(value)];
    // A value matches an option's value first, then its label: agents pass either.
    const chosen = wanted.map((item) => {
      try {
        return chooseOptions(select, [item], 'value')[0]!;
      } catch {
        return chooseOptions(select, [item], 'label')[0]!;
      }
    });
    if (chosen.length > 1 && !select.multiple) chooseOptions(select, wanted, 'value');
    return {
      field,
      described,
      secret,
      apply: async () => {
        const labels = applyOptions(select, chosen);
        return () => labels;
      },
    };
  }
  const text = asText(value, field);
  checkTypable(field, text);
  return {
    field,
    described,
    secret,
    apply: async (signal) => {
      const typed = await typeText(field, text, { clear: true, submit: false, signal });
      const shown = secret ? `${[...text].length} characters (hidden)` : quoteText(text);
      return () => {
        const now = secret ? undefined : valueIfChanged(field, typed);
        return now === undefined ? shown : `${shown}, now ${quoteText(now)}`;
      };
    },
  };
}

/** Fills several fields in one call, in order; every field is checked before the first is touched. */
export function runFillForm(command: z.output<typeof FillFormCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const planned = command.fields.map(({ target, value }) => plan(fieldFor(env.resolveTarget(target)), value));
    for (const item of planned) {
      const needsEditing = ['text', 'value', 'editable'].includes(fieldKind(item.field));
      // A custom checkbox is seen through its label; its input may be drawn nowhere.
      const seen = fieldKind(item.field) === 'checkable' ? (labelStandIn(item.field) ?? item.field) : item.field;
      await actionable(seen, 'fill', { enabled: true, editable: needsEditing }, signal);
    }
    const described: Array<() => string> = [];
    for (const item of planned) {
      described.push(await item.apply(signal));
      // Fields are filled one after another, as a person would: the page reacts in between.
      await yieldToPage(signal);
    }
    let submitted: string | undefined;
    if (command.submit) {
      await nextBeat(signal);
      submitted = submitFromField(planned.at(-1)!.field) ?? 'no form to submit (the fields are in no form)';
    }
    return () => {
      const filled = planned.map((item, index) => `${item.described} = ${described[index]!()}`);
      const line = `Filled ${planned.length} field${planned.length === 1 ? '' : 's'}: ${filled.join(', ')}`;
      return submitted ? `${line}; ${submitted}` : line;
    };
  });
}
