import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import {
  addAgentThroughForm,
  launchWithExtension,
  openPanelTab,
  PANEL_PATH,
  sendMessage,
  TEST_DIST,
  type Launched,
} from './harness';

const T = { timeout: 20_000 };

describe('the chat history of a window', () => {
  let launched: Launched;
  let peer: ShowcasePeer;

  beforeAll(async () => {
    peer = await startShowcasePeer();
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  /** Adds the agent "Keeper", says `text` once it is connected, and returns its session id. */
  async function addKeeperAndSay(panel: Page, text: string): Promise<string> {
    await addAgentThroughForm(panel, { name: 'Keeper', url: peer.url, token: '' });
    await expect.poll(() => panel.getByRole('button', { name: /^Keeper: connected/ }).count(), T).toBe(1);
    const session = peer.sessions.at(-1)!.id;
    await sendMessage(panel, text);
    await expect
      .poll(() => panel.locator('article.message.agent.done .markdown').last().textContent(), T)
      .toBe(`echo: ${text}`);
    return session;
  }

  it('comes back when the panel is closed and reopened, with the draft and messages not sent yet', async () => {
    const panel = await openPanelTab(launched);
    const firstSession = await addKeeperAndSay(panel, 'remember me');

    // Disconnected, a message waits in the queue; a second one is only typed.
    await panel.getByRole('button', { name: /^Keeper: connected/ }).click();
    await panel.getByRole('button', { name: 'Disconnect Keeper' }).click();
    await expect.poll(() => panel.getByRole('button', { name: /^Keeper: disabled/ }).count(), T).toBe(1);
    await sendMessage(panel, 'sent while away');
    const waiting = panel.locator('article.message.user.queued');
    await expect.poll(() => waiting.locator('.body').textContent(), T).toBe('sent while away');
    expect(await waiting.locator('.queued-badge').textContent()).toBe('queued');
    await panel.getByRole('textbox', { name: 'Message' }).fill('half-written thought');
    await expect
      .poll(async () => {
        const stored = JSON.stringify(await panel.evaluate(() => chrome.storage.local.get(null)));
        return stored.includes('half-written thought') && stored.includes('sent while away');
      }, T)
      .toBe(true);
    expect(peer.prompts).not.toContain('sent while away');
    await panel.close();

    const reopened = await openPanelTab(launched);
    const users = reopened.locator('article.message.user .body');
    await expect.poll(() => users.allTextContents(), T).toEqual(['remember me', 'sent while away']);
    expect(await reopened.locator('article.message.agent .markdown').first().textContent()).toBe('echo: remember me');
    expect(await reopened.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('half-written thought');

    // The agent reconnects into the same session and the queued message finally leaves, once.
    await expect.poll(() => peer.prompts.filter((p) => p === 'sent while away').length, T).toBe(1);
    await expect
      .poll(() => reopened.locator('article.message.agent.done .markdown').last().textContent(), T)
      .toBe('echo: sent while away');
    expect(peer.sessions.at(-1)!.id).toBe(firstSession);
    await expect.poll(() => reopened.locator('article.message.user.queued').count(), T).toBe(0);
    await reopened.close();
  });

  it('migrates a conversation saved in the version 1 shape: what was queued leaves once, to the agent that had not taken it', async () => {
    const panel = await openPanelTab(launched);
    await expect.poll(() => panel.getByRole('button', { name: /^Keeper: connected/ }).count(), T).toBe(1);
    const { windowId, agentId } = await panel.evaluate(async () => {
      const { settings } = await chrome.storage.local.get('settings');
      const agents = (settings as { agents: Array<{ id: string; name: string }> }).agents;
      return {
        windowId: (await chrome.windows.getCurrent()).id!,
        agentId: agents.find((a) => a.name === 'Keeper')!.id,
      };
    });
    await panel.close();
    // Written as the version before kept it: a `pending` list of agents on each user message.
    const user = (id: string, text: string, pending: string[]) => ({
      kind: 'user',
      id,
      at: 1,
      text,
      to: [agentId],
      pending,
    });
    const v1 = {
      version: 1,
      savedAt: Date.now(),
      draft: '',
      items: [user('u-v1-1', 'taken before the upgrade', []), user('u-v1-2', 'queued before the upgrade', [agentId])],
    };
    await launched.worker.evaluate(([key, value]) => chrome.storage.local.set({ [key as string]: value }), [
      `history:${windowId}`,
      v1,
    ] as const);

    const reopened = await openPanelTab(launched);
    const users = reopened.locator('article.message.user .body');
    await expect
      .poll(() => users.allTextContents(), T)
      .toEqual(['taken before the upgrade', 'queued before the upgrade']);
    await expect.poll(() => peer.prompts.filter((p) => p === 'queued before the upgrade').length, T).toBe(1);
    await expect
      .poll(() => reopened.locator('article.message.agent.done .markdown').last().textContent(), T)
      .toBe('echo: queued before the upgrade');
    expect(peer.prompts).not.toContain('taken before the upgrade');
    await expect.poll(() => reopened.locator('article.message.user.queued').count(), T).toBe(0);
    await expect
      .poll(async () => {
        const saved = (await reopened.evaluate((key) => chrome.storage.local.get(key), `history:${windowId}`))[
          `history:${windowId}`
        ] as { version: number; queue: unknown; items: object[] };
        return { version: saved.version, queue: saved.queue, pending: saved.items.some((item) => 'pending' in item) };
      }, T)
      .toEqual({ version: 2, queue: {}, pending: false });
    await reopened.close();
  });

  it('comes back after the browser restarts, in a window with another id, and the session resumes', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'tabwright-restart-'));
    let before: Launched | undefined;
    let after: Launched | undefined;
    const windowOf = (page: Page) => page.evaluate(async () => (await chrome.windows.getCurrent()).id);
    try {
      before = await launchWithExtension(TEST_DIST, { profile });
      // The panel is used in a second window, so after the restart it opens under another window id.
      const opened = before.context.waitForEvent('page');
      await before.worker.evaluate(
        (url) => chrome.windows.create({ url }),
        `chrome-extension://${before.extensionId}/${PANEL_PATH}`,
      );
      const panel = await opened;
      await panel.waitForLoadState();
      const oldWindow = await windowOf(panel);
      const firstSession = await addKeeperAndSay(panel, 'remember me across a restart');
      await expect
        .poll(async () => JSON.stringify(await panel.evaluate(() => chrome.storage.local.get(null))), T)
        .toContain('echo: remember me across a restart');
      await before.close();

      after = await launchWithExtension(TEST_DIST, { profile });
      const reopened = await openPanelTab(after);
      expect(await windowOf(reopened)).not.toBe(oldWindow);
      const users = reopened.locator('article.message.user .body');
      await expect.poll(() => users.allTextContents(), T).toEqual(['remember me across a restart']);
      await expect.poll(() => reopened.getByRole('button', { name: /^Keeper: connected/ }).count(), T).toBe(1);
      expect(peer.sessions.at(-1)!.id).toBe(firstSession);
      // The session moved to the new window; none is left under the old one.
      const newWindow = await windowOf(reopened);
      const keys = Object.keys(await reopened.evaluate(() => chrome.storage.local.get(null)));
      const sessionKeys = keys.filter((key) => key.startsWith('session:'));
      expect(sessionKeys).toHaveLength(1);
      expect(sessionKeys[0]).toMatch(new RegExp(`^session:${newWindow}:`));
    } finally {
      await before?.close();
      await after?.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
