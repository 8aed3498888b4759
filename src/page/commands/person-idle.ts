import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { PersonIdleCommand } from '../protocol';

/** How long the person has left this document alone (see `person-input.ts`). */
export function runPersonIdle(_command: z.output<typeof PersonIdleCommand>, env: PageEnv) {
  return { idleMs: env.person.idleMs() };
}
