/**
 * Panel steps the gates' end-to-end tests share: asking the demo agent and waiting for its whole,
 * rendered answer, opening and closing Settings, act mode, and the confirmation card.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { sendMessage } from './harness';

/** Sends a command to the demo agent and waits for its finished, rendered answer to match. */
export async function ask(panel: Page, text: string, answer: RegExp): Promise<string> {
  const replies = panel.locator('article.message.agent');
  const before = await replies.count();
  await sendMessage(panel, text);
  let reply = '';
  await expect
    .poll(
      async () => {
        if ((await replies.count()) <= before) return '';
        // Read once the turn is over and its text fully rendered (slices land over frames).
        const last = replies.last();
        if (!(await last.evaluate((el) => el.matches('.done[aria-busy="false"]')))) return '';
        reply = await last.innerText();
        return reply;
      },
      { timeout: 30_000 },
    )
    .toMatch(answer);
  return reply;
}

export async function openSettings(panel: Page): Promise<void> {
  if (await panel.locator('#settings-heading').count()) return;
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  await panel.locator('#settings-heading').waitFor();
}

export async function closeSettings(panel: Page): Promise<void> {
  if (!(await panel.locator('#settings-heading').count())) return;
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  await panel.getByRole('textbox', { name: 'Message' }).waitFor();
}

export async function setActMode(panel: Page, on: boolean): Promise<void> {
  await openSettings(panel);
  const toggle = panel.getByRole('switch', { name: 'Act mode' });
  if (on) await toggle.check();
  else await toggle.uncheck();
  await closeSettings(panel);
}

export const confirmation = (panel: Page) => panel.getByRole('alertdialog').filter({ hasText: 'wants to run' });
