/**
 * The ACP SDK binding end to end: the broker tunnels through the ACP SDK binding (`mcp/message` with
 * `serverId`), the real panel serves it from the same declarations it gives OpenAB, and the demo
 * agent reads and clicks the fixture page through it.
 */
import { describe, expect, it } from 'vitest';
import { addAgentThroughForm, allowSite, openActiveTab, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'acp-sdk-binding-token';

describe('the demo agent over the ACP SDK binding through the real panel', () => {
  const rig = useRig({ token: TOKEN, chunkDelayMs: 0, dialect: 'b' });

  it('snapshots, clicks once allowed, and asks a question the user answers', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Demo B', url: rig.broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo B: connected/ }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, rig.fixtures.allowed);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const page = await openActiveTab(rig.launched, rig.fixtures.url('/index.html'));
    const replies = panel.locator('article.message.agent.done[aria-busy="false"]');

    await sendMessage(panel, 'snapshot');
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(1);
    expect(await replies.nth(0).locator('.body').innerText()).toMatch(/- button "Count" \[e\d+\]/);

    await sendMessage(panel, 'click Count');
    await panel.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(2);
    expect(await replies.nth(1).locator('.body').innerText()).toContain('Clicked <button> "Count"');
    expect(await page.locator('#clicks').textContent()).toBe('1');

    await sendMessage(panel, 'ask Keep going?');
    await panel.getByRole('button', { name: 'Reject once', exact: true }).first().click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(3);
    // Rendered or not, the answer reported is the option the user picked.
    expect(await replies.nth(2).locator('.body').innerText()).toMatch(
      /You answered: \**Reject once\**\s*\(`?reject_once`?\)/,
    );
  });
});
