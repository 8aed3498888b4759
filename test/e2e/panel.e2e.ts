import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage, type Launched } from './harness';

const T = { timeout: 20_000 };

describe('the chat panel against a live ACP peer', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let panel: Page | undefined;

  beforeAll(async () => {
    peer = await startShowcasePeer();
    launched = await launchWithExtension();
  });
  afterEach(async () => {
    await panel?.close();
    panel = undefined;
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  /** A panel with one agent, "Show", connected to the peer. */
  async function connectedPanel(): Promise<Page> {
    const page = await openPanelTab(launched);
    if (await page.getByRole('textbox', { name: 'Agent name' }).isVisible()) {
      await addAgentThroughForm(page, { name: 'Show', url: peer.url, token: '' });
    }
    // Generous: on a busy machine the first connection of a fresh browser can take a while.
    try {
      await expect
        .poll(() => page.getByRole('button', { name: /^Show: connected/ }).count(), { timeout: 60_000 })
        .toBe(1);
    } catch (error) {
      // Say where the connection stood, so a failure here can be told apart from a slow machine.
      const chips = await page.locator('#roster button').evaluateAll((b) => b.map((e) => e.getAttribute('aria-label')));
      const notices = await page.locator('.notice').allTextContents();
      throw new Error(`agent never connected; roster ${JSON.stringify(chips)}, notices ${JSON.stringify(notices)}`, {
        cause: error,
      });
    }
    // Each test starts from an empty screen (the window's history would otherwise come back).
    await page.getByRole('button', { name: 'Clear screen' }).click();
    return page;
  }

  const replies = (page: Page) => page.locator('article.message.agent.done[aria-busy="false"]');

  it('renders markdown, code, tables, links, plans, thoughts and tool cards; the roster shows the session', async () => {
    panel = await connectedPanel();
    expect(await panel.locator('#version').textContent()).toMatch(/^v\d+\.\d+\.\d+/);
    expect(await panel.getByRole('button', { name: /^Show: connected, read-only$/ }).count()).toBe(1);
    await sendMessage(panel, 'showcase');
    await expect.poll(() => replies(panel!).count(), T).toBe(1);
    const reply = replies(panel).last();

    const code = reply.locator('.code-block');
    expect(await code.locator('.code-lang').textContent()).toBe('ts');
    expect(await code.locator('pre code .hljs-keyword').first().textContent()).toBe('export');
    expect(await code.getByRole('button', { name: 'Copy ts code' }).count()).toBe(1);
    expect(await reply.locator('table th').allTextContents()).toEqual(['Check', 'Before', 'After']);
    expect(await reply.locator('table td.align-right').first().textContent()).toBe('0 failed');
    const link = reply.getByRole('link', { name: 'the docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs/config');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    const plan = reply.locator('details.plan');
    expect(await plan.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    expect(await plan.locator('summary').textContent()).toBe('Plan2 of 3 done');
    expect(await plan.locator('li').allTextContents()).toEqual([
      expect.stringContaining('Read the failing page (done)'),
      expect.stringContaining('Find the config loader (done)'),
      expect.stringContaining('Propose a fix (in progress)'),
    ]);
    const thought = reply.locator('details.thought');
    expect(await thought.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await thought.locator('summary').textContent()).toBe('Thoughts');

    const tool = reply.locator('details.tool');
    expect(await tool.locator('summary').textContent()).toMatch(/tabwright\.snapshot.*read.*done/);
    await tool.locator('summary').focus();
    await panel.keyboard.press('Enter');
    expect(await tool.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    expect(await tool.locator('pre').allTextContents()).toEqual([
      '{\n  "selector": "main",\n  "maxChars": 24000\n}',
      expect.stringContaining('- button "Retry" [e4]'),
      expect.stringContaining('+ if (!text.trim()) return { rules: [] };'),
    ]);

    expect(await panel.locator('.notice').filter({ hasText: 'Show switched to mode “code”.' }).count()).toBe(1);
    const chip = panel.getByRole('button', { name: /^Show: connected/ });
    await chip.click();
    expect(await chip.getAttribute('aria-expanded')).toBe('true');
    const details = panel.locator('#agent-details');
    expect(await details.textContent()).toContain('Fix the empty config crash');
    expect(await details.textContent()).toContain('27% used');
    expect(await details.textContent()).toContain('/review /plan');
  });

  it('copies code and whole messages', async () => {
    panel = await connectedPanel();
    // Reading the clipboard back needs a permission Chrome will not grant an extension origin in
    // automation, so the test records what the panel hands to the clipboard.
    await panel.evaluate(() => {
      const copied: string[] = [];
      (window as unknown as { copied: string[] }).copied = copied;
      navigator.clipboard.writeText = async (text: string) => void copied.push(text);
    });
    await sendMessage(panel, 'showcase');
    await expect.poll(() => replies(panel!).count(), T).toBe(1);
    const copied = () => panel!.evaluate(() => (window as unknown as { copied: string[] }).copied);
    const copy = replies(panel).last().getByRole('button', { name: 'Copy ts code' });
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect((await copied())[0]).toMatch(/^export function parseConfig\(text: string\): Config \{\n/);
    await replies(panel).last().getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(async () => (await copied())[1]).toMatch(/^Here is what I found on the page\. The \*\*build\*\*/);
    expect((await copied())[1]).toContain('| unit tests | 41 failed | 0 failed |');
  });

  it('answers a permission request with the keyboard alone', async () => {
    panel = await connectedPanel();
    const box = panel.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await panel.keyboard.type('permission Edit the config');
    await panel.keyboard.press('Enter');
    const card = panel.getByRole('group', { name: 'Show asks permission: Edit the config' });
    await card.waitFor(T);
    expect(await card.getByRole('button').allTextContents()).toEqual(['Allow once', 'Always allow', 'Reject']);
    const focused = () => panel!.evaluate(() => document.activeElement?.textContent ?? '');
    // The card takes the focus, never an allow button that a stray Enter would press.
    const onCard = () => panel!.evaluate(() => document.activeElement?.hasAttribute('data-permission') ?? false);
    await expect.poll(onCard, T).toBe(true);
    // What the agent would do comes before the answers.
    await panel.keyboard.press('Tab');
    expect(await focused()).toBe('Arguments');
    await panel.keyboard.press('Tab');
    expect(await focused()).toBe('Allow once');
    await panel.keyboard.press('Tab');
    expect(await focused()).toBe('Always allow');
    await panel.keyboard.press('Tab');
    expect(await focused()).toBe('Reject');
    await panel.keyboard.press('Enter');
    await expect.poll(() => peer.answers.at(-1), T).toBe('no');
    await expect.poll(() => card.textContent()).toContain('You chose: Reject');
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await panel.evaluate(() => document.activeElement?.id)).toBe('composer-input');
    await expect
      .poll(() => replies(panel!).last().locator('.markdown').last().textContent(), T)
      .toBe('permission answer: no');

    await panel.keyboard.type('permission Second request');
    await panel.keyboard.press('Enter');
    await expect.poll(onCard, T).toBe(true);
    await panel.keyboard.press('Enter');
    expect(peer.answers.at(-1)).toBe('no');
    await panel.keyboard.press('Tab');
    await panel.keyboard.press('Tab');
    await panel.keyboard.press('Space');
    await expect.poll(() => peer.answers.at(-1), T).toBe('once');
  });

  it('points to a permission request that arrives while Settings hide the conversation', async () => {
    panel = await connectedPanel();
    await sendMessage(panel, 'permission after 1500 Delete the branch');
    await panel.getByRole('button', { name: 'Settings' }).click();
    const waiting = panel.getByRole('button', { name: /^Show asks permission: Delete the branch/ });
    await waiting.waitFor(T);
    await waiting.click();
    const onCard = () => panel!.evaluate(() => document.activeElement?.hasAttribute('data-permission') ?? false);
    await expect.poll(onCard, T).toBe(true);
    await panel.keyboard.press('Tab');
    await panel.keyboard.press('Tab');
    expect(await panel.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
    await panel.keyboard.press('Enter');
    await expect.poll(() => peer.answers.at(-1), T).toBe('once');
    expect(await waiting.count()).toBe(0);
  });

  it('stops a streaming reply, retries the last message and clears the screen without a new session', async () => {
    panel = await connectedPanel();
    const sessionsBefore = peer.sessions.length;
    await sendMessage(panel, 'slow 400 25');
    const stop = panel.getByRole('button', { name: 'Stop', exact: true });
    await expect.poll(() => stop.isEnabled(), T).toBe(true);
    await expect.poll(() => panel!.locator('article.message.agent .markdown p').count(), T).toBeGreaterThan(2);
    await stop.click();
    await expect.poll(() => replies(panel!).last().locator('.stop-reason').textContent(), T).toBe('Stopped.');
    await expect.poll(() => stop.isEnabled()).toBe(false);

    await sendMessage(panel, 'say it twice');
    await expect.poll(() => replies(panel!).last().textContent(), T).toContain('echo: say it twice');
    const count = peer.prompts.length;
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => peer.prompts.length, T).toBe(count + 1);
    expect(peer.prompts.at(-1)).toBe('say it twice');
    await expect.poll(() => replies(panel!).count(), T).toBe(3);

    await panel.getByRole('button', { name: 'Clear screen' }).click();
    expect(await panel.locator('article.message').count()).toBe(0);
    expect(await panel.getByText(/^Say hello to \S+\.$/).count()).toBe(1);
    await sendMessage(panel, 'still the same session');
    await expect.poll(() => replies(panel!).count(), T).toBe(1);
    expect(peer.sessions.length).toBe(sessionsBefore);
  });

  it('follows the reply while at the bottom and offers "Jump to latest" after scrolling up', async () => {
    panel = await connectedPanel();
    await panel.setViewportSize({ width: 420, height: 600 });
    await sendMessage(panel, 'slow 300 15');
    const transcript = panel.getByRole('log', { name: 'Conversation' });
    const distanceFromBottom = () =>
      transcript.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    await expect
      .poll(() => transcript.evaluate((element) => element.scrollHeight > element.clientHeight * 2), T)
      .toBe(true);
    expect(await distanceFromBottom()).toBeLessThan(60);
    // Scrolled up the way a person does, with the wheel over the conversation.
    await transcript.hover();
    await panel.mouse.wheel(0, -20_000);
    const jump = panel.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor(T);
    expect(await transcript.evaluate((element) => element.scrollTop)).toBeLessThan(100);
    await jump.click();
    await expect.poll(distanceFromBottom).toBeLessThan(60);
    expect(await jump.isVisible()).toBe(false);
    await expect.poll(() => replies(panel!).count(), T).toBe(1);
  });

  it('reconnects an unhealthy agent when its chip is clicked', async () => {
    panel = await connectedPanel();
    await panel.getByRole('button', { name: /^Show: connected/ }).click();
    await panel.getByRole('button', { name: 'Disconnect Show' }).click();
    const disabled = panel.getByRole('button', { name: /^Show: disabled, no browser until connected\. Reconnect$/ });
    await expect.poll(() => disabled.count(), T).toBe(1);
    await disabled.click();
    await expect.poll(() => panel!.getByRole('button', { name: /^Show: connected/ }).count(), T).toBe(1);
  });
});
