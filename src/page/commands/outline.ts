import type { z } from 'zod';
import type { PageEnv } from '../env';
import { outlineOf } from '../outline';
import type { OutlineCommand } from '../protocol';

export function runOutline(command: z.output<typeof OutlineCommand>, env: PageEnv) {
  const outline = outlineOf(env.document);
  if (command.show) outline.show(command.label, command.colour, command.leaseMs);
  else outline.hide();
  return { shown: outline.shown };
}
