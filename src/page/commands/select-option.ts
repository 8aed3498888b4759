import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { fieldFor } from '../actions/fields';
import { applyOptions, chooseOptions } from '../actions/options';
import { actionable, runAction } from '../actions/run-action';
import type { SelectOptionCommand } from '../protocol';

/** Picks options of a native drop-down by value or by visible label. */
export function runSelectOption(command: z.output<typeof SelectOptionCommand>, env: PageEnv) {
  return runAction(env, command, async (signal) => {
    const element = fieldFor(env.resolveTarget(command.target));
    if (!(element instanceof HTMLSelectElement)) {
      throw new PageError(
        `${describeElement(element)} is not a native drop-down (<select>). For a custom list, click it to open ` +
          'it, then click the option.',
        'wrong-kind',
      );
    }
    const chosen = command.values?.length
      ? chooseOptions(element, command.values, 'value')
      : chooseOptions(element, command.labels ?? [], 'label');
    await actionable(element, 'select in', { enabled: true }, signal);
    return `Selected ${applyOptions(element, chosen)} in ${describeElement(element)}`;
  });
}
