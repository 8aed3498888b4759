/**
 * The real Claude Code (claude-agent-acp, pinned in test/agents) behind the broker, with the built
 * extension in Chromium. Its model is a scripted Messages API endpoint on loopback: it asks for
 * Tabwright's `snapshot`, and answers with what the tool returned. The call goes from Claude Code's
 * own MCP client through the broker's `/mcp/<session>` and the panel's gates to the fixture page.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../peers/scripted-anthropic';
import { addAgentThroughForm, allowSite, openActiveTab, openPanelTab, ROOT, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'claude-code-e2e-token';
const CLAUDE = join(ROOT, 'test', 'agents', 'node_modules', '.bin', 'claude-agent-acp');
const installed = existsSync(CLAUDE);
if (!installed) {
  console.warn(
    '\n*** SKIPPING the Claude Code end-to-end test: test/agents is not installed. Run `npm ci --prefix test/agents` (CI does). ***\n',
  );
}
/** The fixture page's title, which the scripted model expects to find in the tool's result. */
const TITLE = 'Tabwright demo page';

// The endpoint's address is known only once it listens: the agent's shell reads it when the broker
// starts Claude Code, which happens when the panel connects.
const ENDPOINT_VARIABLE = 'TABWRIGHT_E2E_ANTHROPIC_URL';
const CONFIG_VARIABLE = 'TABWRIGHT_E2E_CLAUDE_CONFIG';
const command = [
  `ANTHROPIC_BASE_URL="$${ENDPOINT_VARIABLE}"`,
  `CLAUDE_CONFIG_DIR="$${CONFIG_VARIABLE}"`,
  'ANTHROPIC_API_KEY=sk-ant-dummy-key-for-tests',
  'DISABLE_AUTOUPDATER=1',
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
  // As root (a CI container) Claude Code starts only when told it is sandboxed.
  ...(process.getuid?.() === 0 ? ['IS_SANDBOX=1'] : []),
  `'${CLAUDE}'`,
].join(' ');

describe.skipIf(!installed)('real Claude Code behind the broker, in the real panel', () => {
  const rig = useRig({ token: TOKEN, agentCommand: command });
  let model: ScriptedAnthropic;
  let config = '';

  beforeAll(async () => {
    model = await startScriptedAnthropic(/snapshot$/, (result) => {
      const title = /# snapshot — (.+)/.exec(result)?.[1] ?? '(no title)';
      return `The page title is ${title}.`;
    });
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    config = mkdtempSync(join(ROOT, '.cache', 'claude-e2e-'));
    process.env[ENDPOINT_VARIABLE] = model.url;
    process.env[CONFIG_VARIABLE] = config;
  });
  afterAll(async () => {
    await model?.close();
    if (config) rmSync(config, { recursive: true, force: true });
  });

  it('calls snapshot through the panel’s gates and answers with the page’s title', async () => {
    const panel = await openPanelTab(rig.launched);
    const opened = Date.now();
    await addAgentThroughForm(panel, { name: 'Claude', url: rig.broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Claude: connected/ }).waitFor({ timeout: 90_000 });
    console.log(`[claude e2e] panel open → connected ${Date.now() - opened} ms`);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, rig.fixtures.allowed);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await openActiveTab(rig.launched, rig.fixtures.url('/index.html'));

    await sendMessage(panel, 'What is the title of the page I am looking at?');
    // Claude Code asks before it uses an MCP tool; the question is answered in the panel.
    const allow = panel.getByRole('button', { name: 'Allow', exact: true });
    const reply = panel.locator('article.message.agent.done[aria-busy="false"]');
    await expect
      .poll(
        async () => {
          if (await allow.first().isVisible()) await allow.first().click();
          return reply.count();
        },
        { timeout: 90_000, interval: 250 },
      )
      .toBe(1);
    expect(model.toolName).toMatch(/^mcp__tabwright__.*snapshot$/);
    expect(model.toolResult).toContain(TITLE);
    expect(await reply.locator('.body').innerText()).toContain(`The page title is ${TITLE}.`);
    expect(await reply.locator('.card.tool .card-title').allInnerTexts()).toEqual([expect.stringMatching(/snapshot/i)]);
  });
});
