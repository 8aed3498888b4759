/** How long the person must have left a tab alone before an agent's write there goes ahead (or on). */
export const PERSON_IDLE_MS = 1_000;
