import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { InspectTargetsCommand } from '../protocol';
import { clip, neutraliseText } from '../../shared/text/line';
import { styleSheetsCanAddText } from '../pseudo-content';
import { FLATTENED_ROLES, snapshotRole } from '../roles';
import { isSecretField } from '../secret-field';
import { snapshotName } from '../snapshot';

/** Shorter than a snapshot's names: this one is read on a card. */
const NAME_MAX = 200;
const CONTROL_TAGS = new Set(['input', 'textarea', 'select']);

/** A target as its snapshot line names it; wrappers without a role of their own read as `generic`. */
function describe(element: Element, pseudoInDocument: boolean) {
  const view = element.ownerDocument.defaultView ?? window;
  const styleOf = view.getComputedStyle.bind(view);
  const visible = styleOf(element).visibility === 'visible';
  const role = snapshotRole(element, element.localName, visible);
  let name = snapshotName(element, styleOf, { inDocument: pseudoInDocument, inShadowTrees: true });
  // A clickable wrapper's snapshot line is named by its text; a form control's text is never its name.
  if (!name && !CONTROL_TAGS.has(element.localName))
    name = neutraliseText((element.textContent ?? '').slice(0, NAME_MAX * 4));
  return { role: role && !FLATTENED_ROLES.has(role) ? role : 'generic', name: clip(name, NAME_MAX) };
}

/**
 * What the panel needs to know about a call's targets before asking the user: whether each is a
 * secret field (its typed value is masked) and the role and name the page gives it now, so the
 * card names the element from the page rather than from the agent's account of it. A target that
 * does not resolve is reported as not found: the action will fail on it.
 */
export function runInspectTargets(command: z.output<typeof InspectTargetsCommand>, env: PageEnv) {
  let pseudo: boolean | undefined;
  return {
    targets: command.targets.map((target) => {
      let element: Element;
      try {
        element = env.resolveTarget(target);
      } catch {
        return { found: false as const };
      }
      pseudo ??= styleSheetsCanAddText(env.document);
      return { found: true as const, secret: isSecretField(element), ...describe(element, pseudo) };
    }),
  };
}
