/**
 * What an agent says can hold secrets: the broker's token, the credentials of live sessions, the
 * API keys it was started with, keys it echoes back in an error. Every text the broker relays from
 * an agent — to its log or to the panel: errors and their data, stderr, who the agent says it is
 * and how it signs in — goes through one mask, made once per broker.
 */

/** Environment variable names whose values are secrets. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(_|$)/i;
/** Shapes of secrets that need no context: provider API keys, bearer values, `name=value` pairs. */
const PATTERNS: Array<[RegExp, string]> = [
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{12,}/g, '$1-***'],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, '***'],
  [/\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, '$1***'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 ***'],
  [/\b([A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD)[A-Z0-9_]*)(\s*[=:]\s*)(["']?)[^\s"',;]{4,}/gi, '$1$2$3***'],
];

/** Values shorter than this are too likely to appear by chance to be masked everywhere. */
const MIN_SECRET_LENGTH = 6;
/** How deep a relayed value is walked; an agent's error data nests a few levels at most. */
const MAX_DEPTH = 32;

export type Mask = (text: string) => string;

/** Each value, wherever it appears in the text, replaced by `***`. */
export function maskValues(text: string, values: Iterable<string>): string {
  let masked = text;
  for (const value of values) if (value) masked = masked.split(value).join('***');
  return masked;
}

/**
 * The `NAME=value` words a shell command starts with (`OPENAI_API_KEY='…' codex-acp`): variables
 * the agent is started with besides the broker's own environment.
 */
export function commandAssignments(command: string): Record<string, string> {
  const assignment = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]*))(?=\s)/;
  const found: Record<string, string> = {};
  let rest = command;
  for (let match = assignment.exec(rest); match; match = assignment.exec(rest)) {
    found[match[1]!] = match[2] ?? match[3]?.replace(/\\(.)/g, '$1') ?? match[4] ?? '';
    rest = rest.slice(match[0].length);
  }
  return found;
}

/**
 * The mask: `redact` first (the secrets known by value, read at each use so credentials minted
 * later count), then the values of every variable named like a secret in `env` and in the agent
 * command's own assignments, then the shapes secrets usually have.
 */
export function secretMask(redact: Mask, env: NodeJS.ProcessEnv = process.env, command = ''): Mask {
  const assigned = commandAssignments(command);
  // Read at each use: agents start with the environment as it is then, not as it was at start-up.
  const values = () =>
    Object.entries({ ...env, ...assigned })
      .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_SECRET_LENGTH)
      .map(([, value]) => value!)
      // The longest first, so a secret that contains another is masked whole.
      .sort((a, b) => b.length - a.length);
  return (text) => {
    let masked = maskValues(redact(text), values());
    for (const [pattern, replacement] of PATTERNS) masked = masked.replace(pattern, replacement);
    return masked;
  };
}

/** A JSON value (an error's data, an agent's description of itself) with every string in it masked, keys too. */
export function maskDeep<T>(value: T, mask: Mask, depth = 0): T {
  if (typeof value === 'string') return mask(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Deeper than any real error goes: dropped rather than relayed unread.
  if (depth >= MAX_DEPTH) return undefined as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskDeep(item, mask, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [mask(key), maskDeep(item as unknown, mask, depth + 1)]),
  ) as T;
}
