/**
 * An agent's sign-in methods (ACP `authMethods`) in words. Agents describe three kinds: one the
 * agent performs itself when asked (`authenticate`), one that reads an environment variable the
 * agent must be started with, and a login the user runs in a terminal. The agent runs next to the
 * broker, not in the browser, so the last two say exactly what to run there.
 */
export type SignInKind = 'agent' | 'env_var' | 'terminal';

export interface SignInOption {
  id: string;
  name: string;
  description: string | undefined;
  kind: SignInKind;
  /** Environment variables the agent must be started with (env_var methods). */
  variables: string[];
  /** The command to run in a terminal (terminal methods). */
  command: string | undefined;
  /** What the user does, in a sentence; undefined when choosing the method is all there is to it. */
  instruction: string | undefined;
  /** Whether the panel asks the agent to sign in (`authenticate`), or only retries once the user is done. */
  authenticates: boolean;
}

const MAX_TEXT = 300;
/** A command line can be long (absolute paths, variables): it is shown whole up to this. */
const MAX_COMMAND = 2_000;

function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex -- names and descriptions come from the agent
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (!clean) return undefined;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** A shell word, quoted only when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function terminalCommand(method: Record<string, unknown>): string | undefined {
  // The local broker, which starts the agent, spells out the whole line (its command and the args).
  const spelled = (method._meta as Record<string, unknown> | undefined)?.['tabwright/terminalCommand'];
  if (typeof spelled === 'string' && spelled.trim()) return text(spelled, MAX_COMMAND);
  // Agents that predate the `terminal` type put the whole command under `_meta["terminal-auth"]`.
  const meta = (method._meta as Record<string, unknown> | undefined)?.['terminal-auth'] as
    Record<string, unknown> | undefined;
  const command = typeof meta?.command === 'string' ? meta.command : undefined;
  if (command) return [command, ...strings(meta?.args)].map(shellWord).join(' ');
  return undefined;
}

/** Names of environment variables an env_var method lists, or, failing that, that its description names. */
function variablesOf(method: Record<string, unknown>): string[] {
  const listed = Array.isArray(method.vars)
    ? method.vars.flatMap((variable) => {
        const name = (variable as { name?: unknown }).name;
        return typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? [name] : [];
      })
    : [];
  if (listed.length || typeof method.varName !== 'string') return listed;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(method.varName) ? [method.varName] : [];
}

export function signInOptions(methods: readonly unknown[] | undefined): SignInOption[] {
  const options: SignInOption[] = [];
  for (const raw of methods ?? []) {
    if (typeof raw !== 'object' || raw === null) continue;
    const method = raw as Record<string, unknown>;
    const id = typeof method.id === 'string' ? method.id : undefined;
    if (!id) continue;
    const name = text(method.name) ?? id;
    const description = text(method.description);
    const variables = variablesOf(method);
    const command = terminalCommand(method);
    const kind: SignInKind =
      method.type === 'terminal' || (command && method.type === undefined)
        ? 'terminal'
        : method.type === 'env_var' || variables.length
          ? 'env_var'
          : 'agent';
    let instruction: string | undefined;
    if (kind === 'terminal') {
      instruction = command
        ? `Run this in a terminal on the broker’s machine, sign in there, then choose Retry: ${command}`
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
      instruction,
      authenticates: kind !== 'terminal',
    });
  }
  return options;
}
