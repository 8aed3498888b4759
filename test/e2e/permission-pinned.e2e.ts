/**
 * An agent's permission request in real Chromium, sent over a real WebSocket by a broker peer in
 * the shape Qwen Code sends it (a title that says nothing, its words in `content`, the tool's name
 * in `_meta.toolName`): it is pinned above the conversation like an action's card, so scrolling a
 * long reply never hides it, shows the agent's words, the tool's kind and name, has one primary
 * button, and focus lands on the card, never on an allow option. A request for input
 * (`elicitation/create`) is pinned the same way until it is answered.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawPeer, type Frame, type RawPeer } from '../peers/raw-acp-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage, type Launched } from './harness';

/** Qwen Code's request for a shell command, as it sends it. */
const QWEN_REQUEST = {
  sessionId: 'raw-session',
  toolCall: {
    toolCallId: 'run_shell_command-1',
    title: '{}',
    kind: 'execute',
    status: 'pending',
    content: [{ type: 'content', content: { type: 'text', text: 'Run the test suite to check the fix.' } }],
    rawInput: { command: 'npm test', description: 'Run the test suite' },
    _meta: { toolName: 'run_shell_command' },
  },
  options: [
    { optionId: 'proceed_always', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'proceed_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
  ],
};

/**
 * The request is outside the conversation and, with the conversation scrolled back to `firstLine`,
 * still in view and on top.
 */
async function expectPinnedInView(request: Locator, firstLine: string): Promise<void> {
  await expect.poll(() => request.evaluate((node) => !node.closest('#transcript'))).toBe(true);
  const panel = request.page();
  await panel.locator('#transcript').evaluate((log) => (log.scrollTop = 0));
  await panel.getByText(firstLine).waitFor();
  expect(
    await request.evaluate((node) => {
      const box = node.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + 10);
      return box.top >= 0 && box.bottom <= innerHeight && node.contains(hit);
    }),
  ).toBe(true);
}

describe('a permission request from Qwen Code', () => {
  let peer: RawPeer;
  let launched: Launched;
  let panel: Page;
  let promptId: string | number | undefined;

  beforeAll(async () => {
    peer = await startRawPeer({ answerPrompt: (id) => (promptId = id) });
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await panel.setViewportSize({ width: 380, height: 640 });
    await addAgentThroughForm(panel, { name: 'Qwen', url: peer.url, token: '' });
    await panel.getByRole('button', { name: /Qwen: connected/ }).waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  it('is pinned above a long reply, in its words, with one primary and focus off every allow option', async () => {
    await sendMessage(panel, 'Fix the failing test');
    await peer.waitFor((frame) => frame.method === 'session/prompt');
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of a long explanation.`).join('\n\n');
    peer.notify('session/update', {
      sessionId: 'raw-session',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: lines } },
    });
    await panel.getByText('Line 120 of a long explanation.').waitFor();
    const answered: Promise<Frame> = peer.request('session/request_permission', QWEN_REQUEST);

    const card = panel.getByRole('group', { name: 'Qwen asks permission: run_shell_command' });
    await card.waitFor();
    // Scrolled to the top of the conversation, the request is still in view and on top.
    await expectPinnedInView(card, 'Line 1 of a long explanation.');

    expect(await card.locator('.permission-tool').textContent()).toBe('Tool: execute · run_shell_command');
    await card.getByText('Run the test suite to check the fix.').waitFor();
    expect(await card.locator('button.primary').allTextContents()).toEqual(['Allow once']);
    const focused = await panel.evaluate(() => ({
      card: document.activeElement?.hasAttribute('data-permission') ?? false,
      option: (document.activeElement as HTMLElement | null)?.dataset.option ?? null,
    }));
    expect(focused).toEqual({ card: true, option: null });
    // Where the request was asked, the conversation says it waits above.
    await panel.locator('#transcript').getByText('answer it above the conversation').waitFor();

    await card.getByRole('button', { name: 'Allow once' }).click();
    const response = await answered;
    expect(response.result).toEqual({ outcome: { outcome: 'selected', optionId: 'proceed_once' } });
    await panel.locator('#transcript').getByText('Allow once', { exact: false }).first().waitFor();
    expect(await panel.locator('.pinned-requests').evaluate((pins) => pins.childElementCount)).toBe(0);
    peer.send({ jsonrpc: '2.0', id: promptId!, result: { stopReason: 'end_turn' } });
  });

  it('pins a request for input the same way, and puts it back in the conversation once answered', async () => {
    await sendMessage(panel, 'Send the report');
    await peer.waitFor((frame) => frame.method === 'session/prompt' && frame.id !== promptId);
    const lines = Array.from({ length: 120 }, (_, i) => `Step ${i + 1} of the plan.`).join('\n\n');
    peer.notify('session/update', {
      sessionId: 'raw-session',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: lines } },
    });
    await panel.getByText('Step 120 of the plan.').waitFor();
    const answered: Promise<Frame> = peer.request('elicitation/create', {
      sessionId: 'raw-session',
      mode: 'form',
      message: 'Where should the report go?',
      requestedSchema: {
        type: 'object',
        properties: { email: { type: 'string', title: 'Email', format: 'email' } },
        required: ['email'],
      },
    });

    const form = panel.getByRole('group', { name: 'Qwen asks for input' });
    await form.waitFor();
    await expectPinnedInView(form, 'Step 1 of the plan.');
    // Focus went to its first field, and the conversation says where the request waits.
    const email = form.getByRole('textbox', { name: /^Email/ });
    await expect.poll(() => email.evaluate((node) => node === document.activeElement)).toBe(true);
    await panel.locator('#transcript').getByText('Qwen asks for input — answer it above the conversation.').waitFor();

    await email.fill('me@example.com');
    await form.getByRole('button', { name: 'Submit' }).click();
    const response = await answered;
    expect(response.result).toEqual({ action: 'accept', content: { email: 'me@example.com' } });
    const sent = panel.locator('#transcript').getByRole('group', { name: 'Qwen asks for input' });
    await sent.getByRole('status').filter({ hasText: 'Sent.' }).waitFor();
    expect(await panel.locator('.pinned-requests').evaluate((pins) => pins.childElementCount)).toBe(0);
  });
});
