/**
 * The chat keeps its place: a person reading an older reply finds it where they left it after
 * opening and closing Settings, and after "Disconnect all".
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage, type Launched } from './harness';

const TOKEN = 'scroll-token';

const scrollTop = (panel: Page) => panel.locator('#transcript').evaluate((log) => log.scrollTop);

describe('the chat keeps its place', () => {
  let launched: Launched;
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
  });

  it('across opening and closing Settings, and "Disconnect all"', async () => {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize({ width: 360, height: 700 });
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    for (let n = 1; n <= 4; n++) {
      await sendMessage(panel, 'help');
      await panel
        .locator('article.message.agent.done')
        .nth(n - 1)
        .waitFor({ timeout: 30_000 });
    }
    const bottom = await panel.locator('#transcript').evaluate((log) => log.scrollHeight - log.clientHeight);
    expect(bottom).toBeGreaterThan(600);
    const reading = Math.round(bottom / 2);
    await panel.locator('#transcript').evaluate((log, top) => log.scrollTo({ top }), reading);
    await expect.poll(() => scrollTop(panel)).toBe(reading);
    // "Jump to latest" is offered below the transcript, never over what is being read.
    const jump = panel.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    const [log, button] = await Promise.all([panel.locator('#transcript').boundingBox(), jump.boundingBox()]);
    expect(button!.y).toBeGreaterThanOrEqual(log!.y + log!.height);

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('navigation', { name: 'Settings sections' }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await scrollTop(panel)).toBe(reading);

    await panel.getByRole('button', { name: 'Disconnect all' }).click();
    await panel.getByRole('button', { name: /Demo: disabled/ }).waitFor();
    await panel.locator('#transcript').getByText('All agents were disconnected.').waitFor({ state: 'attached' });
    expect(await scrollTop(panel)).toBe(reading);
  });
});
