import { describe, expect, it } from 'vitest';
import { addAgentThroughForm, openPanelTab, openRealSidePanel, sendMessage } from './harness';
import { useRig } from './rig';

describe('the panel chats through the local broker', () => {
  const rig = useRig({ token: 'e2e-token_1', chunkDelayMs: 2 });

  it('opens the real side panel from the toolbar button', async () => {
    const tab = await rig.launched.context.newPage();
    await tab.goto(rig.fixtures.url('/index.html'));
    const target = await openRealSidePanel(rig.launched, tab);
    expect(target).toMatch(/\w+/);
    await tab.close();
  });

  it('adds an agent, sends a message and shows the streamed reply', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Demo', url: rig.broker.url, token: 'e2e-token_1' });
    await expect
      .poll(() => panel.getByRole('button', { name: /Demo: connected/ }).count(), { timeout: 15_000 })
      .toBe(1);
    await sendMessage(panel, 'hello from the panel');
    const reply = panel.locator('article.message.agent').last();
    await expect
      .poll(() => reply.locator('.body').textContent(), { timeout: 15_000 })
      .toBe('You said: hello from the panel');
    expect(await panel.locator('article.message.user .body').last().textContent()).toBe('hello from the panel');
    await panel.close();
  });

  it('says "wrong token" for a wrong token and "nothing listening" when nothing listens', async () => {
    const panel = await openPanelTab(rig.launched);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await addAgentThroughForm(panel, { name: 'Wrong', url: rig.broker.url, token: 'not-the-token' });
    await expect
      .poll(() => panel.getByRole('button', { name: /Wrong: wrong token/ }).count(), { timeout: 15_000 })
      .toBe(1);
    const title = await panel.getByRole('button', { name: /Wrong:/ }).getAttribute('title');
    expect(title).toMatch(/^wrong token: the broker refused the token/);
    await addAgentThroughForm(panel, { name: 'Nobody', url: 'ws://127.0.0.1:9/acp', token: '' });
    await expect
      .poll(() => panel.getByRole('button', { name: /Nobody: nothing listening/ }).count(), { timeout: 15_000 })
      .toBe(1);
    await panel.close();
  });

  it('refuses a malformed URL and a token a subprotocol cannot carry, in the form', async () => {
    const panel = await openPanelTab(rig.launched);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await addAgentThroughForm(panel, { name: 'Bad URL', url: 'not a url', token: '' });
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: 'full WebSocket URL' }).count()).toBe(1);
    await addAgentThroughForm(panel, { name: 'Bad token', url: rig.broker.url, token: 'abc/def==' });
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: 'subprotocol' }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: /Bad (URL|token):/ }).count()).toBe(0);
    await panel.close();
  });
});
