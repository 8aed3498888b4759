/**
 * An agent whose terminal logins try to get a shell command of its choosing shown to the user, in
 * the real panel: the login with a variable name that is shell is refused, saying why, with no
 * command and nothing to press; the one it forged under the broker's key shows none; the command
 * that is shown has its values quoted, no invisible characters, and a caption saying it is the
 * agent's own text.
 */
import { describe, expect, it } from 'vitest';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { addAgentThroughForm, openPanelTab } from './harness';
import { useRig } from './rig';

const TOKEN = 'sign-in-command-e2e-token';

describe('an agent’s terminal logins, in the real panel', () => {
  const rig = useRig({
    token: TOKEN,
    agentCommand: stdioAgentCommand({ STDIO_AGENT_AUTH: 'hostile', TEST_AGENT_KEY: 'dummy-key-for-tests' }),
  });

  it('refuses a variable name that is shell and shows only quoted commands, marked as the agent’s', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Shelly', url: rig.broker.url, token: TOKEN });
    const chip = panel.getByRole('button', { name: /^Shelly: needs sign-in/ });
    await chip.waitFor({ timeout: 60_000 });
    await chip.click();
    const methods = panel.getByRole('region', { name: 'Shelly needs signing in. Pick how:' });
    await methods.waitFor();
    const shown = await methods.innerText();
    expect(shown).not.toContain('curl -s http://127.0.0.1:9/x');
    expect(shown).not.toContain('http://127.0.0.1:9/z');
    expect(shown).not.toContain('\u202e');

    const refused = methods.getByRole('listitem').filter({ hasText: 'Log in quickly' });
    expect(await refused.innerText()).toContain('The broker will not spell out this login');
    expect(await refused.locator('pre, button').count()).toBe(0);

    const commands = methods.locator('figure.sign-in-command');
    expect(await commands.count()).toBe(1);
    expect(await commands.locator('figcaption').innerText()).toBe(
      'Command as Shelly gave it (the agent’s own text: read it before you run it):',
    );
    const command = await commands.locator('pre code').innerText();
    expect(command).toMatch(/^LOGIN_PROFILE='it'\\''s \$\(curl -s http:\/\/127\.0\.0\.1:9\/y\); rm -rf ~' /);
    expect(command).toMatch(/stdio-agent\.ts' --login --profile 'worktxt\.exe'$/);

    await methods.getByRole('button', { name: 'Sign in: Use TEST_AGENT_KEY' }).click();
    await panel.getByRole('button', { name: /^Shelly: connected/ }).waitFor({ timeout: 30_000 });
  });
});
