import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { ClickCommand } from '../protocol';

function describe(element: Element): string {
  const text = (element.textContent ?? '').trim().slice(0, 60);
  return `<${element.tagName.toLowerCase()}>${text ? ` "${text}"` : ''}`;
}

export function runClick(command: z.output<typeof ClickCommand>, env: PageEnv) {
  const element = env.resolveTarget(command.target) as HTMLElement;
  element.scrollIntoView?.({ block: 'center', inline: 'center' });
  element.click();
  if (command.double) element.click();
  return { description: `Clicked ${describe(element)}` };
}
