/**
 * A message with a command in it: the command is shown as code, never between literal backticks,
 * and stays out of the translation (a translator moves `$n`, not the command).
 */
import { h } from './dom';
import { t, type MessageKey } from './i18n';

/** A substitution shown as code. */
export interface Code {
  code: string;
}

// Private-use characters: chrome.i18n keeps them in substitutions, and no message contains them.
const slot = (index: number) => `\uE100${index}\uE100`;

export function messageWithCode(key: MessageKey, ...substitutions: Array<string | Code>): Array<Node | string> {
  const text = t(key, ...substitutions.map((part, index) => (typeof part === 'string' ? part : slot(index))));
  return text
    .split(/(\uE100\d\uE100)/)
    .filter(Boolean)
    .map((piece) => {
      const match = /^\uE100(\d)\uE100$/.exec(piece);
      const part = match ? substitutions[Number(match[1])] : undefined;
      return part && typeof part !== 'string' ? h('code', {}, part.code) : piece;
    });
}
