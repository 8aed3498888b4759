/**
 * An agent's error that echoes secrets — the broker's token, an API key from the broker's
 * environment, its session's MCP credential — in the real panel: the chat shows it masked, the
 * window's saved history keeps it masked, and the transcript restored from that history too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { addAgentThroughForm, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'agent-secrets-e2e-token';
/** Shaped like no known provider's key, so only its variable's name can tell it is one. */
const KEY = 'opnk-8Hd3Kq6Zp1Yc4Nf7';

// The key the user started the broker with, which the agent inherits; set before the rig starts it.
const savedKey = process.env.OPENAI_API_KEY;
process.env.OPENAI_API_KEY = KEY;
afterAll(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
});

describe('secrets in an agent’s error, in the real panel', () => {
  const rig = useRig({ token: TOKEN, agentCommand: stdioAgentCommand({ STDIO_AGENT_LEAK: TOKEN }) });

  it('are masked in the chat, in the saved history and in the transcript restored from it', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Leaky', url: rig.broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /^Leaky: connected/ }).waitFor({ timeout: 60_000 });
    await sendMessage(panel, 'fail-secret');
    // The error ends the agent's reply (or stands alone as a notice when no reply was open).
    const failure = 'article.message.agent p.error, .notice.severity-error';
    const notice = panel.locator(failure).filter({ hasText: 'Request refused for' }).last();
    await notice.waitFor({ timeout: 30_000 });
    const shown = await notice.innerText();
    expect(shown).toContain('Request refused for ***: invalid key *** for this organisation (my MCP bearer is ***)');
    expect(shown).toContain('upstream answered 401 for *** and ***');
    const page = await panel.locator('body').innerText();
    expect(page).not.toContain(TOKEN);
    expect(page).not.toContain(KEY);

    const history = async () => {
      const stored = await panel.evaluate(() => chrome.storage.local.get(null));
      return JSON.stringify(Object.entries(stored).filter(([key]) => key.startsWith('history:')));
    };
    await expect.poll(history, { timeout: 15_000 }).toContain('Request refused for ***');
    expect(await history()).not.toContain(TOKEN);
    expect(await history()).not.toContain(KEY);
    await panel.close();

    const reopened = await openPanelTab(rig.launched);
    const restored = reopened.locator(failure).filter({ hasText: 'Request refused for' });
    await restored.first().waitFor({ timeout: 30_000 });
    expect(await restored.first().innerText()).toContain('invalid key *** for this organisation');
    const again = await reopened.locator('body').innerText();
    expect(again).not.toContain(TOKEN);
    expect(again).not.toContain(KEY);
  });
});
