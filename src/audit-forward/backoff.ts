/**
 * How long to wait before trying a collector again: doubling from a second up to five minutes,
 * each wait drawn between half and all of that, so browsers that lost the same collector do not
 * all come back at the same moment. Pure: the random source is passed in.
 */
export const FIRST_RETRY_MS = 1_000;
export const LONGEST_RETRY_MS = 5 * 60_000;

/** The wait after `failures` failed sends in a row (1 for the first). */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
