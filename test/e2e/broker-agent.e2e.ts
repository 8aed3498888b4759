/**
 * `--agent` with the real panel: the broker spawns a stdio ACP agent (built on the ACP SDK's agent
 * side), relays the chat, and the agent operates the fixture page through the broker's HTTP MCP
 * endpoint — through the panel's gates, with the user's confirmation.
 */
import { describe, expect, it } from 'vitest';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { addAgentThroughForm, allowSite, openActiveTab, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'broker-agent-token';

describe('a stdio ACP agent behind the broker works in the real panel', () => {
  const rig = useRig({ token: TOKEN, agentCommand: stdioAgentCommand() });

  it('chats, clicks through HTTP MCP once allowed, and relays a permission question', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Stdio', url: rig.broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Stdio: connected/ }).waitFor({ timeout: 60_000 });
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, rig.fixtures.allowed);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const page = await openActiveTab(rig.launched, rig.fixtures.url('/index.html'));
    const replies = panel.locator('article.message.agent.done[aria-busy="false"]');

    await sendMessage(panel, 'mcp');
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(1);
    expect(await replies.nth(0).locator('.body').innerText()).toContain(
      'mcp: http tabwright (auth header: yes; connected: yes)',
    );

    await sendMessage(panel, 'click Count');
    await panel.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(2);
    expect(await replies.nth(1).locator('.body').innerText()).toContain('clicked: Clicked <button> "Count"');
    expect(await page.locator('#clicks').textContent()).toBe('1');

    await sendMessage(panel, 'ask Ship it?');
    await panel.getByRole('button', { name: 'Yes', exact: true }).first().click({ timeout: 30_000 });
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(3);
    expect(await replies.nth(2).locator('.body').innerText()).toContain('answer: yes');
  });
});
