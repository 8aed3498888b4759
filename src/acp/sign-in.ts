/**
 * An agent's sign-in methods (ACP `authMethods`) in words. Agents describe three kinds: one the
 * agent performs itself when asked (`authenticate`), one that reads an environment variable the
 * agent must be started with, and a login the user runs in a terminal. The agent runs next to the
 * broker, not in the browser, so the last two say exactly what to run there.
 *
 * A terminal command is the agent's text (the local broker spells out the agent's own command, its
 * arguments and variables): it is shown without invisible characters, which could make it read
 * other than it runs, and never when a variable name in it is not a plain name, which would make
 * the line run more than the agent's login.
 */
import { z } from 'zod';
import { stripInvisible } from '../shared/text/invisible';

export type SignInKind = 'agent' | 'env_var' | 'terminal';

export interface SignInOption {
  id: string;
  name: string;
  description: string | undefined;
  kind: SignInKind;
  /** Environment variables the agent must be started with (env_var methods). */
  variables: string[];
  /** The command to run in a terminal (terminal methods): the agent's own text. */
  command: string | undefined;
  /** Why the method cannot be used, when the broker (or the panel) refused it; it has no command then. */
  refused: string | undefined;
  /** What the user does, in a sentence; undefined when choosing the method is all there is to it. */
  instruction: string | undefined;
  /** Whether the panel asks the agent to sign in (`authenticate`), or only retries once the user is done. */
  authenticates: boolean;
}

const MAX_TEXT = 300;
/** A command line can be long (absolute paths, variables): it is shown whole up to this. */
const MAX_COMMAND = 2_000;

/** The names a shell takes as a variable assignment, and nothing else. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const BAD_VARIABLE_NAME =
  'This login names an environment variable that is not a plain name (letters, digits and _), so the command ' +
  'would run more than the login: it is not shown.';

/** Names, descriptions and commands come from the agent: no controls, nothing invisible. */
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = stripInvisible(value).replace(CONTROLS, ' ').trim();
  if (!clean) return undefined;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** A shell word, quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A field of the wrong shape counts as absent, so one odd field does not lose the whole method. */
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * An ACP `authMethods` entry, by the fields whose shape matters here; the others (name, description,
 * type, varName) are read as they come and checked where they are used.
 */
const Method = z.looseObject({
  id: z.string().min(1),
  vars: optional(z.array(z.unknown())),
  env: optional(z.record(z.string(), z.unknown())),
  _meta: optional(
    z.looseObject({
      // Written by the local broker: the whole line to run, or why it refused the method.
      'tabwright/terminalCommand': optional(z.string()),
      'tabwright/refused': optional(z.string()),
      // Agents that predate the `terminal` type put the whole command here.
      'terminal-auth': optional(z.looseObject({ command: z.string(), args: optional(z.array(z.unknown())) })),
      // Others give the method's type here instead of in the method (Qwen Code: `{type: "terminal", args}`).
      type: optional(z.string()),
    }),
  ),
});
type Method = z.infer<typeof Method>;

/**
 * Why a method cannot be used: the broker said so, or its variables have names no shell reads as
 * a plain assignment (a broker that spelled them out unchecked would have made them a command).
 */
function refusalOf(method: Method): string | undefined {
  const said = text(method._meta?.['tabwright/refused']);
  if (said) return said;
  return Object.keys(method.env ?? {}).some((name) => !VARIABLE_NAME.test(name)) ? BAD_VARIABLE_NAME : undefined;
}

function terminalCommand(method: Method): string | undefined {
  // The local broker, which starts the agent, spells out the whole line (its command and the args).
  const spelled = method._meta?.['tabwright/terminalCommand'];
  if (spelled?.trim()) return text(spelled, MAX_COMMAND);
  const legacy = method._meta?.['terminal-auth'];
  if (!legacy) return undefined;
  const args = (legacy.args ?? []).filter((arg): arg is string => typeof arg === 'string');
  // Each word loses its invisible characters before it is quoted, so the quoting stays the word's own.
  return text([legacy.command, ...args].map((word) => shellWord(stripInvisible(word))).join(' '), MAX_COMMAND);
}

/** Names of environment variables an env_var method lists, or, failing that, that its description names. */
function variablesOf(method: Method): string[] {
  const listed = (method.vars ?? []).flatMap((variable) => {
    const name = (variable as { name?: unknown } | null)?.name;
    return typeof name === 'string' && VARIABLE_NAME.test(name) ? [name] : [];
  });
  if (listed.length || typeof method.varName !== 'string') return listed;
  return VARIABLE_NAME.test(method.varName) ? [method.varName] : [];
}

export function signInOptions(methods: readonly unknown[] | undefined): SignInOption[] {
  const options: SignInOption[] = [];
  for (const raw of methods ?? []) {
    const parsed = Method.safeParse(raw);
    if (!parsed.success) continue;
    const method = parsed.data;
    const id = method.id;
    const name = text(method.name) ?? id;
    const description = text(method.description);
    const variables = variablesOf(method);
    const refused = refusalOf(method);
    const command = refused ? undefined : terminalCommand(method);
    const type = method.type ?? method._meta?.type;
    const kind: SignInKind =
      type === 'terminal' || ((command || refused) && type === undefined)
        ? 'terminal'
        : type === 'env_var' || variables.length
          ? 'env_var'
          : 'agent';
    let instruction: string | undefined;
    if (refused) {
      instruction = refused;
    } else if (kind === 'terminal') {
      // The command itself is shown apart, marked as the agent's.
      instruction = command
        ? 'Run this in a terminal on the broker’s machine, sign in there, then choose Retry.'
        : `Sign in with the agent’s own command in a terminal on the broker’s machine${description ? ` (${description})` : ''}, then choose Retry.`;
    } else if (kind === 'env_var') {
      const names = variables.length ? variables : ['the variable it names'];
      const assignments = names.map((name) => `${name}=…`).join(' ');
      instruction = `Start the broker with ${names.join(' and ')} set (${assignments} npm run broker -- --agent "…"), then choose Sign in.`;
    }
    options.push({
      id,
      name,
      description,
      kind,
      variables,
      command,
      refused,
      instruction,
      authenticates: kind !== 'terminal' && !refused,
    });
  }
  return options;
}
