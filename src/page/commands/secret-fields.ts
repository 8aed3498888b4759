import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { SecretFieldsCommand } from '../protocol';

/** Autocomplete tokens that mark a field as holding a secret, even when it is shown as plain text. */
const SECRET_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code|cc-number|cc-csc)\b/i;

function isSecretField(element: Element): boolean {
  if (element.tagName !== 'INPUT') return false;
  const input = element as HTMLInputElement;
  if (input.type === 'password') return true;
  // "Show password" toggles turn the field into type=text; its autocomplete token usually stays.
  return SECRET_AUTOCOMPLETE.test(input.getAttribute('autocomplete') ?? '');
}

/**
 * Which of the targets name password (or similar) fields, so the panel can mask the values typed
 * into them. A target that does not resolve counts as not secret here: the action will fail on it.
 */
export function runSecretFields(command: z.output<typeof SecretFieldsCommand>, env: PageEnv) {
  return {
    secret: command.targets.map((target) => {
      try {
        return isSecretField(env.resolveTarget(target));
      } catch {
        return false;
      }
    }),
  };
}
