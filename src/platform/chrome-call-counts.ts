/**
 * In the test build only: counts the panel's calls into the Chrome APIs a tool call costs
 * (scripting, tabs, windows, frames, permissions), per method, so tests can read what one call
 * did. Installed before the panel's code first reaches those APIs; every module looks the methods
 * up at call time, so each call goes through the count.
 */
const COUNTED = ['scripting', 'tabs', 'windows', 'webNavigation', 'permissions', 'tabGroups'] as const;

export interface ChromeCallCounts {
  /** Calls per `namespace.method` since the last reset. */
  counts(): Record<string, number>;
  reset(): void;
}

/**
 * `separate` names a call that is counted under its own key instead, by its arguments: the page
 * clock's ticks, whose number follows how long a command runs, not what it does.
 */
export function countChromeCalls(
  api: typeof chrome,
  separate?: (key: string, args: readonly unknown[]) => string | undefined,
): ChromeCallCounts {
  let counts: Record<string, number> = {};
  for (const name of COUNTED) {
    const namespace = api[name] as unknown as Record<string, unknown> | undefined;
    if (!namespace) continue;
    for (const [method, value] of Object.entries(namespace)) {
      if (typeof value !== 'function' || method.startsWith('on')) continue;
      const key = `${name}.${method}`;
      namespace[method] = function counted(this: unknown, ...args: unknown[]) {
        const counted = separate?.(key, args) ?? key;
        counts[counted] = (counts[counted] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  }
  return {
    counts: () => ({ ...counts }),
    reset: () => void (counts = {}),
  };
}
