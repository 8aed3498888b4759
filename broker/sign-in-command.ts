/**
 * A terminal login runs the agent's own command with extra arguments and variables; only the
 * broker knows that command, so it spells the whole line out for the panel to show. What the agent
 * gives — variable names and values, arguments — is data to quote, never shell to paste: a name
 * that is not a plain variable name (`HOME=/x; curl … | sh; X`) refuses the method instead.
 *
 * `tabwright/…` keys in a method's `_meta` are the broker's word to the panel: the agent's own are
 * dropped, so an agent cannot hand the panel a command of its choosing.
 */
import type { AuthMethod } from '@agentclientprotocol/sdk/unstable';

/** Where a terminal method carries the full command line the user runs (read by src/acp/sign-in.ts). */
export const TERMINAL_COMMAND_META = 'tabwright/terminalCommand';
/** Why the broker refused a method, for the panel to say instead of a command. */
export const REFUSED_META = 'tabwright/refused';

const BROKER_META_PREFIX = 'tabwright/';
/** The names a POSIX shell takes as a variable assignment, and nothing else. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const BAD_VARIABLE_NAME =
  'The broker will not spell out this login: the agent asks for an environment variable whose name is not a ' +
  'plain name (letters, digits and _, not starting with a digit), and the line would run it as a command.';

/** Always single-quoted: a value is data, whatever characters it holds. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A shell word, quoted unless it is made only of characters no shell reads specially. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word);
}

function withoutBrokerMeta(meta: Record<string, unknown> | null | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith(BROKER_META_PREFIX));
  return kept.length ? Object.fromEntries(kept) : undefined;
}

export interface SpelledMethod {
  method: AuthMethod;
  /** Set when the method was refused: why, in words. */
  refusal?: string;
}

/**
 * A terminal login an agent describes in `_meta` instead of the method's own fields (Qwen Code:
 * `_meta: {type: "terminal", args: [...]}`), as the method the ACP schema has for it.
 */
function terminalFromMeta(method: AuthMethod): AuthMethod {
  if ('type' in method && method.type !== undefined) return method;
  const meta = method._meta as { type?: unknown; args?: unknown; env?: unknown } | undefined;
  if (meta?.type !== 'terminal') return method;
  const args = Array.isArray(meta.args) ? meta.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const env =
    typeof meta.env === 'object' && meta.env !== null && !Array.isArray(meta.env)
      ? Object.fromEntries(Object.entries(meta.env).map(([name, value]) => [name, String(value)]))
      : undefined;
  return { ...method, type: 'terminal', args, ...(env ? { env } : {}) } as AuthMethod;
}

/** One of the agent's sign-in methods as the panel gets it; `command` is the agent command the broker runs. */
export function spellSignIn(method: AuthMethod, command: string): SpelledMethod {
  const { _meta: agentMeta, ...rest } = method;
  const meta = withoutBrokerMeta(agentMeta);
  const own = terminalFromMeta((meta ? { ...rest, _meta: meta } : rest) as AuthMethod);
  if (!('type' in own) || own.type !== 'terminal') return { method: own };
  const variables = Object.entries(own.env ?? {});
  if (variables.some(([name]) => !VARIABLE_NAME.test(name))) {
    return {
      method: {
        type: 'terminal',
        id: own.id,
        name: own.name,
        description: BAD_VARIABLE_NAME,
        _meta: { [REFUSED_META]: BAD_VARIABLE_NAME },
      },
      refusal: BAD_VARIABLE_NAME,
    };
  }
  const assignments = variables.map(([name, value]) => `${name}=${shellQuote(String(value))} `).join('');
  const args = (own.args ?? []).map((arg) => ` ${shellWord(String(arg))}`).join('');
  return { method: { ...own, _meta: { ...own._meta, [TERMINAL_COMMAND_META]: `${assignments}${command}${args}` } } };
}
