/**
 * What an agent writes to stderr can hold secrets: the broker's token (in its MCP configuration),
 * the API keys it was started with, keys it echoes back in an error. Every line the broker relays
 * to its log or to the panel goes through one mask.
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

export function secretMask(
  redact: (text: string) => string,
  env: NodeJS.ProcessEnv = process.env,
): (text: string) => string {
  const values = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value!)
    // The longest first, so a secret that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let masked = redact(text);
    for (const value of values) masked = masked.split(value).join('***');
    for (const [pattern, replacement] of PATTERNS) masked = masked.replace(pattern, replacement);
    return masked;
  };
}
