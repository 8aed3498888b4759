import type { Plugin } from 'vite';

/**
 * Generated modules that build hundreds of schemas at load, each evaluated in one go: on a slow
 * machine that is a long task of its own. Their top level is a flat list of `export const`
 * declarations, so a return to the event loop can be put between any two of them.
 */
const SLICED_MODULES = [/\/@agentclientprotocol\/sdk\/dist\/v1\/unstable\/schema\/zod\.gen\.js$/];

/** Declarations evaluated per task. */
const DECLARATIONS_PER_STEP = 25;

const STEP = 'await new Promise((resolve) => setTimeout(resolve, 0));';

/**
 * Puts a top-level `await` of a zero-delay timer every few declarations, so the module evaluates
 * over several tasks. Modules that import it wait until it has finished (top-level await), so
 * nothing can see it half-built. Only for pages: a service worker may not use top-level await.
 */
export function withYieldPoints(code: string, every = DECLARATIONS_PER_STEP): string {
  let declarations = 0;
  return code
    .split('\n')
    .map((line) => {
      if (!line.startsWith('export const ')) return line;
      declarations++;
      return declarations % every === 0 ? `${STEP}\n${line}` : line;
    })
    .join('\n');
}

export function yieldPoints(): Plugin {
  return {
    name: 'tabwright:yield-points',
    transform(code, id) {
      if (!SLICED_MODULES.some((pattern) => pattern.test(id))) return null;
      return { code: withYieldPoints(code), map: null };
    },
  };
}
