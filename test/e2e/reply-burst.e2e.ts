import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import {
  addAgentThroughForm,
  launchWithExtension,
  openPanelTab,
  ROOT,
  sendMessage,
  waitFor,
  type Launched,
} from './harness';

const T = { timeout: 60_000 };
const LAST_WORDS = 'the very last words of the reply';
/** About 100 KB of prose, lists, tables and code: far more than one frame formats. */
const LONG_REPLY =
  readFileSync(join(ROOT, 'test/fixtures/markdown/reply.md'), 'utf8').repeat(100) + `\n\nAnd ${LAST_WORDS}.\n`;

/** What the page saw when the reply's last words first reached the DOM. */
interface FirstSeen {
  busy: string | null;
  inWaitingText: boolean;
  formattedTables: number;
}

/**
 * A reply that arrives faster than a frame can format it — in one message, or in a burst of
 * hundreds — is on screen as written at once, below the part formatted so far, and the reply ends
 * with the same formatted DOM as ever.
 */
describe('a long reply arriving at once is shown before it is formatted', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let panel: Page;

  beforeAll(async () => {
    peer = await startShowcasePeer({ documents: { long: LONG_REPLY } });
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Long', url: peer.url, token: '' });
    await waitFor(async () => (await panel.getByRole('button', { name: /^Long: connected/ }).count()) === 1, 60_000);
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  /** Streams the reply and returns what the page saw when its last words appeared, and its final body. */
  async function receive(chunks: number): Promise<{ seen: FirstSeen; body: string }> {
    await panel.getByRole('button', { name: 'Clear screen' }).click();
    await panel.evaluate((lastWords) => {
      const w = window as unknown as { firstSeen?: FirstSeen; seenObserver?: MutationObserver };
      w.firstSeen = undefined;
      w.seenObserver?.disconnect();
      w.seenObserver = new MutationObserver(() => {
        if (w.firstSeen) return;
        const reply = document.querySelector('article.message.agent');
        if (!reply?.textContent?.includes(lastWords)) return;
        w.firstSeen = {
          busy: reply.getAttribute('aria-busy'),
          inWaitingText: reply.querySelector('.md-pending')?.textContent?.includes(lastWords) ?? false,
          formattedTables: reply.querySelectorAll('.md-chunk table').length,
        };
      });
      w.seenObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, LAST_WORDS);
    await sendMessage(panel, `stream long ${chunks} 0`);
    await expect.poll(() => panel.locator('article.message.agent.done[aria-busy="false"]').count(), T).toBe(1);
    const seen = await panel.evaluate(() => (window as unknown as { firstSeen?: FirstSeen }).firstSeen);
    const body = await panel.evaluate(() => {
      const copy = document.querySelector('article.message.agent .body')!.cloneNode(true) as Element;
      // Code is highlighted only near the view: compared by its text.
      for (const code of copy.querySelectorAll('pre code')) code.replaceChildren(code.textContent ?? '');
      return copy.innerHTML;
    });
    return { seen: seen!, body };
  }

  it('in one message and in a burst of 500: the last words show as written while the reply is still being formatted', async () => {
    const once = await receive(1);
    const burst = await receive(500);
    for (const { seen } of [once, burst]) {
      expect(seen).toBeDefined();
      expect(seen.busy).toBe('true');
      expect(seen.inWaitingText).toBe(true);
      // Most of the reply was still waiting for formatting: 100 copies carry 100 tables.
      expect(seen.formattedTables).toBeLessThan(50);
    }
    expect(burst.body).toBe(once.body);
    expect(once.body).not.toContain('md-pending');
    expect(once.body).toContain(LAST_WORDS);
    expect((once.body.match(/<table/g) ?? []).length).toBe(100);
  });
});
