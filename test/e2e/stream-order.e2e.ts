import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage, waitFor, type Launched } from './harness';

const T = { timeout: 30_000 };
const WORDS = Array.from({ length: 400 }, (_, n) => `w${n}`).join(' ');

/**
 * The panel merges text chunks that come close together before the ACP SDK sees them. The turn's
 * end comes right behind the last chunk: at every spacing, every word must land in the reply, in
 * order, and the reply must end after its last words (a word after the end would open a new reply).
 */
describe('a streamed reply keeps its words and its end in order', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let panel: Page;

  beforeAll(async () => {
    peer = await startShowcasePeer({ documents: { words: WORDS } });
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Words', url: peer.url, token: '' });
    await waitFor(async () => (await panel.getByRole('button', { name: /^Words: connected/ }).count()) === 1, 60_000);
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  it.each([
    ['back to back', 400, 0],
    ['1 ms apart', 200, 1],
    ['4 ms apart', 100, 4],
    ['20 ms apart, longer than a chunk waits', 40, 20],
  ])('%s', async (_label, chunks, delayMs) => {
    const replies = panel.locator('article.message.agent');
    const before = await replies.count();
    await sendMessage(panel, `stream words ${chunks} ${delayMs}`);
    const reply = replies.nth(before);
    await expect.poll(() => panel.locator('article.message.agent.done').count(), T).toBe(before + 1);
    expect(await replies.count()).toBe(before + 1);
    expect((await reply.locator('.body').textContent())?.trim()).toBe(WORDS);
  });
});
