/**
 * How one agent's reply reaches another: `<message from="Name">…</message>`. The body goes
 * through the same defusing as page text (src/shared/text/wrappers.ts), so a reply cannot close
 * its element early, forge another sender, or pose as page content.
 */
import { stripInvisible } from '../shared/text/invisible';
import { wrapText } from '../shared/text/wrappers';

export function sanitiseName(name: string): string {
  return (
    stripInvisible(name)
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/["<>&]/g, '')
      .trim()
      .slice(0, 64) || 'agent'
  );
}

export function wrapRelay(from: string, body: string, partial: boolean): string {
  return wrapText('message', { from: sanitiseName(from), ...(partial ? { partial: 'true' } : {}) }, body);
}
