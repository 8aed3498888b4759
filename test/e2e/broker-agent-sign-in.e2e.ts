/**
 * An agent that needs signing in, behind the broker, in the real panel: its chip says so (not
 * "wrong token"), its sign-in methods are listed in words with what to run, and the one picked
 * signs it in and starts the session, all in the one agent process the broker started.
 */
import { describe, expect, it } from 'vitest';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { addAgentThroughForm, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'sign-in-token';

describe('an agent that needs signing in, in the real panel', () => {
  const logs: string[] = [];
  const rig = useRig({
    token: TOKEN,
    agentCommand: stdioAgentCommand({ STDIO_AGENT_AUTH: 'required', TEST_AGENT_KEY: 'dummy-key-for-tests' }),
    log: (line) => logs.push(line),
  });

  it('shows a needs sign-in chip, names the methods, and signs in with the one picked', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Keyed', url: rig.broker.url, token: TOKEN });
    const chip = panel.getByRole('button', { name: /^Keyed: needs sign-in/ });
    await chip.waitFor({ timeout: 60_000 });
    expect(await chip.locator('.badge.connection').innerText()).toBe('needs sign-in');
    await chip.click();
    const methods = panel.getByRole('region', { name: 'Keyed needs signing in. Pick how:' });
    await methods.waitFor();
    expect(await methods.innerText()).toContain('Start the broker with TEST_AGENT_KEY set (TEST_AGENT_KEY=…');
    // The terminal login's command is the agent's own, which only the broker knows, with its args.
    expect(await methods.locator('pre code').innerText()).toMatch(/stdio-agent\.ts' --login$/);
    // Waiting for the user starts nothing new.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(logs.filter((line) => /^agent process \d+ started$/.test(line))).toHaveLength(1);

    await methods.getByRole('button', { name: 'Sign in: Use TEST_AGENT_KEY' }).click();
    await panel.getByRole('button', { name: /^Keyed: connected/ }).waitFor({ timeout: 30_000 });
    await sendMessage(panel, 'hello');
    const reply = panel.locator('article.message.agent.done[aria-busy="false"]');
    await expect.poll(() => reply.count(), { timeout: 30_000 }).toBe(1);
    expect(await reply.locator('.body').innerText()).toContain('agent heard: hello');
    expect(logs.filter((line) => /^agent process \d+ started$/.test(line))).toHaveLength(1);
  });
});
