/**
 * Secrets never reach the audit log or a confirmation dialog: argument values under secret-like
 * keys, and values typed into password fields, are masked.
 */
const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|auth|credential|otp|pin\b|cvv|cvc|card[-_]?number/i;

export const MASK = '••••••';

export function redactArgs(
  args: Record<string, unknown>,
  secretTargets: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const visit = (value: unknown, key: string | undefined): unknown => {
    if (key !== undefined && SECRET_KEY.test(key)) return MASK;
    if (Array.isArray(value)) return value.map((item) => visit(item, undefined));
    if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      // A fill/type aimed at a password field: mask the value it carries.
      const target =
        typeof object.ref === 'string' ? object.ref : typeof object.selector === 'string' ? object.selector : undefined;
      const secretTarget = target !== undefined && secretTargets.has(target);
      return Object.fromEntries(
        Object.entries(object).map(([k, v]) => [
          k,
          secretTarget && (k === 'value' || k === 'text') ? MASK : visit(v, k),
        ]),
      );
    }
    return value;
  };
  return visit(args, undefined) as Record<string, unknown>;
}
