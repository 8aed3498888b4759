import { describe, expect, it } from 'vitest';
import { addAgentThroughForm, allowSite, openActiveTab, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

describe('the demo agent uses the browser tools through the real panel', () => {
  const rig = useRig({ token: 'tunnel-token', chunkDelayMs: 0 });

  it('snapshots the page and clicks a button only with act mode on and the click confirmed', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Demo', url: rig.broker.url, token: 'tunnel-token' });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, rig.fixtures.allowed);
    await panel.getByRole('button', { name: 'Settings' }).click();
    const page = await openActiveTab(rig.launched, rig.fixtures.url('/index.html'));

    await sendMessage(panel, 'snapshot');
    const replies = panel.locator('article.message.agent.done[aria-busy="false"]');
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(1);
    const snapshot = await replies.nth(0).locator('.body').innerText();
    expect(snapshot).toContain('# snapshot — Tabwright demo page');
    expect(snapshot).toMatch(/- button "Count" \[e\d+\]/);

    await sendMessage(panel, 'click Count');
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(2);
    expect(await replies.nth(1).locator('.body').innerText()).toContain('act mode is off');
    expect(await page.locator('#clicks').textContent()).toBe('0');

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await sendMessage(panel, 'click Count');
    await panel.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(3);
    expect(await replies.nth(2).locator('.body').innerText()).toContain('Clicked <button> "Count"');
    expect(await page.locator('#clicks').textContent()).toBe('1');
  });
});
