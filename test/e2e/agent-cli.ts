/**
 * One real agent CLI (pinned in test/agents) behind `npm run broker -- --agent …`, with the built
 * extension in Chromium and a scripted model on loopback speaking that agent's API. The model asks
 * for the browser's `snapshot`; the call goes from the agent's own MCP client through the broker's
 * `/mcp/<session>` and the panel's gates to the fixture page, and the model's final text quotes the
 * page's title, which only the page can have supplied. Then a turn is stopped mid-answer, and the
 * next one must get its own answer, with nothing of the stopped one in it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTools } from '../../src/mcp-server/tools/index';
import { addAgentThroughForm, allowSite, openActiveTab, openPanelTab, ROOT, sendMessage } from './harness';
import { useRig } from './rig';

/** The fixture page's title, which the scripted model expects to find in the tool's result. */
export const TITLE = 'Tabwright demo page';
export const BIN = join(ROOT, 'test', 'agents', 'node_modules', '.bin');
/** The scratch folder the agent's shell finds its configuration in (set before the agent starts). */
export const SCRATCH_VARIABLE = 'TABWRIGHT_E2E_AGENT_HOME';
/** The scripted model's address, for the agent's shell. */
export const MODEL_VARIABLE = 'TABWRIGHT_E2E_MODEL_URL';

/** What the model sees and says; both scripted servers have these. */
export interface Model {
  url: string;
  readonly toolName: string | undefined;
  readonly toolResult: string | undefined;
  readonly searchResult?: string | undefined;
  readonly decisions?: readonly string[];
  readonly offered: ReadonlySet<string>;
  close(): Promise<void>;
}

export interface AgentCli {
  /** The name shown in the panel and the test's title. */
  name: string;
  /** The executable in test/agents/node_modules/.bin. */
  bin: string;
  /** The agent command; its shell reads $TABWRIGHT_E2E_MODEL_URL and $TABWRIGHT_E2E_AGENT_HOME. */
  command: string;
  startModel(answer: (result: string) => string): Promise<Model>;
  /** Writes what the agent reads at start into the scratch folder, given the model's address. */
  prepare?(home: string, modelUrl: string): void;
  /** The name the model is offered a browser tool under, or undefined when tools are found by search. */
  seen?(tool: string): string;
  /** The name the model called `snapshot` by. */
  called: RegExp;
  /** The tool cards of the first reply, by title (by default one, for `snapshot`). */
  cards?: RegExp[];
}

export const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function titleOf(result: string): string {
  // Some agents hand the model the tool's result as JSON, with its line breaks escaped.
  return /# snapshot — (.+?)(?: · |\\n|\n|"|$)/.exec(result)?.[1]?.trim() ?? '(no title)';
}

export function describeAgentCli(agent: AgentCli): void {
  const token = `${agent.bin}-e2e-token`;
  const installed = existsSync(join(BIN, agent.bin));
  if (!installed) {
    console.warn(
      `\n*** SKIPPING the ${agent.name} end-to-end test: test/agents is not installed. Run \`npm install --prefix test/agents\` (CI does). ***\n`,
    );
  }
  describe.skipIf(!installed)(`real ${agent.name} behind the broker, in the real panel`, () => {
    let model: Model;
    let home = '';

    beforeAll(async () => {
      model = await agent.startModel((result) => `The page title is ${titleOf(result)}.`);
      mkdirSync(join(ROOT, '.cache'), { recursive: true });
      home = mkdtempSync(join(ROOT, '.cache', `${agent.bin}-e2e-`));
      agent.prepare?.(home, model.url);
      process.env[MODEL_VARIABLE] = model.url;
      process.env[SCRATCH_VARIABLE] = home;
    });
    // After the rig's own teardown (hooks after run in reverse), so the agent is gone by then.
    afterAll(async () => {
      await model?.close();
      if (home) rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    });
    // What the broker saw (the agent's MCP client, its tool listings), for a failure to show.
    const brokerLog: string[] = [];
    const rig = useRig({
      token,
      agentCommand: agent.command,
      log: (line) => brokerLog.push(`${new Date().toISOString().slice(11, 23)} ${line}`),
    });

    it('calls snapshot through the panel’s gates, quotes the page, stops mid-turn and answers the next turn', async () => {
      const log = (line: string) => console.log(`[${agent.bin} e2e] ${line}`);
      const panel = await openPanelTab(rig.launched);
      const opened = Date.now();
      await addAgentThroughForm(panel, { name: agent.name, url: rig.broker.url, token });
      await panel.getByRole('button', { name: new RegExp(`${agent.name}: connected`) }).waitFor({ timeout: 90_000 });
      log(`connect → ready ${Date.now() - opened} ms`);
      await panel.getByRole('button', { name: 'Settings' }).click();
      await allowSite(panel, rig.fixtures.allowed);
      await panel.getByRole('button', { name: 'Settings' }).click();
      await openActiveTab(rig.launched, rig.fixtures.url('/index.html'));

      const replies = panel.locator('article.message.agent.done[aria-busy="false"]');
      const allow = panel.getByRole('button', { name: 'Allow', exact: true });
      let asked = 0;
      /** Waits for `count` finished replies, answering any permission question with Allow. */
      const settle = (count: number) =>
        expect
          .poll(
            async () => {
              if (await allow.first().isVisible()) {
                asked++;
                await allow.first().click();
              }
              return replies.count();
            },
            { timeout: 90_000, interval: 250 },
          )
          .toBe(count);

      await sendMessage(panel, 'What is the title of the page I am looking at?');
      await settle(1);
      log(`names the model sees: ${agent.seen ? agent.seen('snapshot') : '(by search)'}; called ${model.toolName}`);
      log(`asked the user before the tool: ${asked ? 'yes' : 'no'}`);
      log(
        brokerLog.find((line) => line.includes('first turn waited')) ??
          'the first turn did not wait for a tool listing',
      );
      const seenByBroker = () =>
        `the agent's tool search answered: ${model.searchResult?.slice(0, 400) ?? '(no search)'}\n` +
        `the model's requests:\n${(model.decisions ?? []).join('\n')}\n` +
        `the broker's log:\n${brokerLog.slice(-40).join('\n')}`;
      expect(model.toolName ?? '(never called)', seenByBroker()).toMatch(agent.called);
      expect(model.toolResult).toContain(TITLE);
      expect(await replies.nth(0).locator('.body').innerText()).toContain(`The page title is ${TITLE}.`);
      expect(await replies.nth(0).locator('.card.tool .card-title').allInnerTexts()).toEqual(
        (agent.cards ?? [/snapshot/i]).map((title) => expect.stringMatching(title)),
      );
      if (agent.seen) {
        // Every browser tool, each once, with no server prefix of its own inside the agent's.
        const seen = browserTools.map((tool) => agent.seen!(tool.name));
        expect([...model.offered].filter((name) => seen.includes(name))).toHaveLength(browserTools.length);
        expect([...model.offered].filter((name) => /tabwright.*tabwright/.test(name))).toEqual([]);
      }

      await sendMessage(panel, 'Please work slowly on this.');
      const stop = panel.getByRole('button', { name: 'Stop', exact: true });
      await expect
        .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 60_000 })
        .toContain('Working on it slowly');
      const stopped = Date.now();
      await stop.click();
      await settle(2);
      expect(await stop.isDisabled()).toBe(true);
      log(`Stop → idle ${Date.now() - stopped} ms`);
      expect(await replies.nth(1).locator('.stop-reason').textContent()).toBe('Stopped.');

      await sendMessage(panel, 'Now please say kiwi.');
      await settle(3);
      const next = await replies.nth(2).locator('.body').innerText();
      expect(next).toContain('Said: kiwi.');
      expect(next).not.toContain('Working on it slowly');
    });
  });
}
