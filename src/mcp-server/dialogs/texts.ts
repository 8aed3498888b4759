/**
 * Every sentence Tabwright says about JavaScript dialogs, to the agent and on the card: one text
 * per situation, written once.
 */
import type { DialogAnswer, DialogKind } from './port';

export const KIND_NAME: Record<DialogKind, string> = {
  alert: 'an alert',
  confirm: 'a confirm dialog',
  prompt: 'a prompt',
};

function heldState(kind: DialogKind): string {
  return (
    `The page is showing its own ${kind} dialog, opened while no agent action ran. It belongs to the user, ` +
    'and until they answer it in the tab the page runs nothing.'
  );
}

/** A call on a held tab did nothing. */
export function heldText(kind: DialogKind): string {
  return `${heldState(kind)} Nothing was done. Ask the user to answer it, then try again.`;
}

/** A call stopped partway: what it did before stays; an action still on its way is refused by the page. */
export function heldMidCallText(kind: DialogKind): string {
  return (
    `${heldState(kind)} The call stopped there: what it had done stays, and an action it had sent is not ` +
    'done when the dialog is answered. Ask the user to answer it, then call snapshot.'
  );
}

/** A page the call brought up could not be read. */
export function heldUnreadText(kind: DialogKind): string {
  return `${heldState(kind)} It could not be read; ask the user to answer it, then call snapshot.`;
}

/** The answer as the user reads it on the confirmation card. */
export function describeAnswer(answer: DialogAnswer): string {
  if (!answer.accept) return 'dismiss it (Cancel)';
  return answer.promptText !== undefined ? `accept it, answering "${answer.promptText}"` : 'accept it (OK)';
}

/** The answer as the result reports it was given. */
export function describeGiven(answer: DialogAnswer): string {
  if (!answer.accept) return 'dismissed (Cancel)';
  return answer.promptText !== undefined ? `accepted, answering "${answer.promptText}"` : 'accepted (OK)';
}

/** What happened to one dialog an action's relays recorded. */
export function dialogOutcome(kind: DialogKind, answer: DialogAnswer | null, attributed: boolean | undefined): string {
  if (answer) return `it was answered as the call said: ${describeGiven(answer)}`;
  if (attributed === false) {
    return (
      "it did not come from the action's own events (it came from a timer, another frame or script, or the person), " +
      `so it was ${kind === 'alert' ? 'closed' : 'dismissed (Cancel)'} and no answer the call gave went to it`
    );
  }
  return kind === 'alert' ? 'it was closed' : 'it was dismissed (Cancel), because the call gave no `dialog` answer';
}

export const REPEAT_WITH_ANSWER =
  'To answer it, repeat the action with `dialog`: { "accept": true } for OK, { "accept": false } for Cancel, ' +
  'and "promptText" for what to type into a prompt.';

/** A leave the page would prompt for, refused. */
export function leaveRefusedText(verb: string): string {
  return (
    `The page asks before leaving ("Leave site? Changes you made may not be saved."), so nothing was done: ` +
    `the tab did not ${verb} and the page is as it was. If leaving is what the user wants, and unsaved ` +
    'changes on the page may be lost, repeat the call with `dialog`: { "accept": true }.'
  );
}
