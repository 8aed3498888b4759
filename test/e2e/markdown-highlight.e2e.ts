import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, waitFor, type Launched } from './harness';

const T = { timeout: 30_000 };
const REPLIES = 80;

/** Finished replies with a TypeScript block each, fed into the panel's own chat model (test builds expose it). */
const FEED = `async ({ count }) => {
  const chat = globalThis.tabwrightChat;
  for (let n = 0; n < count; n++) {
    const code = ['\`\`\`ts', \`export function step\${n}(input: number[]): number {\`, '  let total = 0;',
      '  for (const value of input) total += value * 2;', \`  return Math.max(total, \${n});\`, '}', '\`\`\`'].join('\\n');
    chat.startTurn('highlight-e2e', 'Coder');
    chat.applyUpdate('highlight-e2e', 'Coder', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: \`Reply \${n}:\\n\\n\${code}\\n\\nDone.\` },
    });
    chat.endTurn('highlight-e2e', { stopReason: 'end_turn' });
    if (n % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}`;

describe('code highlighting follows the view in a long conversation', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let panel: Page;

  beforeAll(async () => {
    peer = await startShowcasePeer();
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await panel.setViewportSize({ width: 420, height: 600 });
    // The conversation is shown once an agent is configured.
    await addAgentThroughForm(panel, { name: 'Show', url: peer.url, token: '' });
    await waitFor(async () => (await panel.getByRole('button', { name: /^Show: connected/ }).count()) === 1, 60_000);
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  it('shows old code plain until it is scrolled to, then highlighted, and lets go of code far below', async () => {
    await panel.evaluate(`(${FEED})(${JSON.stringify({ count: REPLIES })})`);
    const replies = panel.locator('article.message.agent.done');
    await expect.poll(() => replies.count(), T).toBe(REPLIES);
    await expect.poll(() => panel.locator('article.message.agent[aria-busy="true"]').count(), T).toBe(0);
    const first = replies.first().locator('.code-block');
    const last = replies.last().locator('.code-block');
    const tokens = (block: typeof first) => block.locator('pre code [class^="hljs-"]').count();

    // At the bottom: the newest code is coloured, the oldest (screens above) is one text node.
    await expect.poll(() => tokens(last), T).toBeGreaterThan(5);
    await expect.poll(() => last.locator('pre code .hljs-keyword').first().textContent(), T).toBe('export');
    expect(await tokens(first)).toBe(0);
    expect(await first.locator('pre code').evaluate((code) => code.childNodes.length)).toBe(1);

    // Scrolled up the way a person does, with the wheel over the conversation.
    const transcript = panel.getByRole('log', { name: 'Conversation' });
    await transcript.hover();
    await expect
      .poll(async () => {
        await panel.mouse.wheel(0, -50_000);
        return transcript.evaluate((element) => element.scrollTop);
      }, T)
      .toBe(0);
    await expect.poll(() => tokens(first), T).toBeGreaterThan(5);
    expect(await first.locator('pre code .hljs-keyword').first().textContent()).toBe('export');
    expect(await first.locator('pre code').textContent()).toBe(
      'export function step0(input: number[]): number {\n  let total = 0;\n' +
        '  for (const value of input) total += value * 2;\n  return Math.max(total, 0);\n}\n',
    );
    // Code just below the view is coloured before it scrolls in.
    const justBelow = () =>
      transcript.evaluate((scroller) => {
        const bottom = scroller.getBoundingClientRect().bottom;
        const block = [...scroller.querySelectorAll('.code-block')].find(
          (candidate) => candidate.getBoundingClientRect().top > bottom + 100,
        );
        if (!block) return undefined;
        const distance = block.getBoundingClientRect().top - bottom;
        return { near: distance < 1_000, tokens: block.querySelectorAll('pre code [class^="hljs-"]').length };
      });
    await expect.poll(justBelow, T).toEqual({ near: true, tokens: expect.any(Number) });
    await expect.poll(async () => (await justBelow())!.tokens, T).toBeGreaterThan(5);
    // The newest code is now far below: back to plain text, reading the same.
    await expect.poll(() => tokens(last), T).toBe(0);
    expect(await last.locator('pre code').textContent()).toContain(`return Math.max(total, ${REPLIES - 1});`);
  });
});
