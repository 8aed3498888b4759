/**
 * A reply cut off by its connection, in the built panel against the project's broker run as a
 * process: killed mid-reply and restarted without its state, and cut at the network while it
 * lives on. The reply says at once that the connection is gone; a message the agent had started on
 * is never sent into a new session without the person pressing Retry, and each run is a reply of
 * its own; a session that comes back carries on in the same reply.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { killProcess, startBrokerProcess } from '../integration/broker-process';
import { startTcpProxy, type TcpProxy } from '../integration/tcp-proxy';
import {
  addAgentThroughForm,
  launchWithExtension,
  openPanelTab,
  panelText,
  sendMessage,
  type Launched,
} from './harness';

const TOKEN = 'interrupted-token_1';
const text = panelText();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Lines of the demo agent's `stream` reply that carry `label`, in the reply's text. */
const linesOf = async (reply: ReturnType<Page['locator']>, label: string) =>
  ((await reply.locator('.body').textContent()) ?? '').split(label).length - 1;

describe('a reply whose connection is cut', () => {
  let launched: Launched;
  let directory: string;
  let broker: ChildProcess | undefined;
  let proxy: TcpProxy | undefined;
  let panel: Page | undefined;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'tabwright-interrupted-'));
  });
  // Each test adds its agent to a fresh profile, through the first-run form.
  beforeEach(async () => {
    launched = await launchWithExtension();
  });
  afterEach(async () => {
    await panel?.close();
    await proxy?.close();
    if (broker) await killProcess(broker);
    await launched?.close();
    panel = proxy = broker = undefined;
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  async function connect(url: string): Promise<Page> {
    const page = await openPanelTab(launched);
    await addAgentThroughForm(page, { name: 'Demo', url, token: TOKEN });
    await expect.poll(() => page.getByRole('button', { name: /Demo: connected/ }).count(), { timeout: 20_000 }).toBe(1);
    return page;
  }

  it('says so at once when the broker dies, and never runs the message again without Retry', async () => {
    const port = await freePort();
    broker = await startBrokerProcess(port, TOKEN, join(directory, 'first.json'));
    panel = await connect(`ws://127.0.0.1:${port}/acp`);
    await sendMessage(panel, 'stream 200 60 first-run');
    const replies = panel.locator('article.message.agent');
    const reply = replies.first();
    await expect.poll(() => linesOf(reply, 'first-run'), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);

    await killProcess(broker);
    const killedAt = Date.now();
    await expect
      .poll(() => reply.locator('.reply-state').textContent(), { timeout: 5_000 })
      .toBe(text('replyInterrupted'));
    const markedMs = Date.now() - killedAt;
    // Text that arrived before the socket died may still be drawing (a slice per frame): count once it is drawn.
    let linesAtKill = -1;
    await expect
      .poll(async () => {
        const before = linesAtKill;
        linesAtKill = await linesOf(reply, 'first-run');
        await new Promise((resolve) => setTimeout(resolve, 300));
        return linesAtKill === before && linesAtKill === (await linesOf(reply, 'first-run'));
      })
      .toBe(true);

    // Restarted without its state: the session is gone, and the agent would start the task over.
    broker = await startBrokerProcess(port, TOKEN, join(directory, 'second.json'));
    await expect
      .poll(() => reply.getByRole('alert').textContent(), { timeout: 20_000 })
      .toBe(text('replyCutNewSession'));
    await expect
      .poll(() => panel!.getByRole('button', { name: /Demo: connected/ }).count(), { timeout: 20_000 })
      .toBe(1);
    // Long enough for a re-sent message to have streamed several lines.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await replies.count()).toBe(1);
    expect(await linesOf(reply, 'first-run')).toBe(linesAtKill);
    expect(await reply.getAttribute('aria-busy')).toBe('false');

    await panel.getByRole('button', { name: text('retry') }).click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => linesOf(replies.last(), 'first-run'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await linesOf(reply, 'first-run')).toBe(linesAtKill);
    console.info(`the reply said the connection was lost ${markedMs} ms after the broker was killed`);
  });

  it('carries on in the same reply when the connection comes back to a session that lived on', async () => {
    const port = await freePort();
    broker = await startBrokerProcess(port, TOKEN, join(directory, 'lives.json'));
    proxy = await startTcpProxy(port);
    panel = await connect(`ws://127.0.0.1:${proxy.port}/acp`);
    await sendMessage(panel, 'stream 40 80 lives-on');
    const replies = panel.locator('article.message.agent');
    const reply = replies.first();
    await expect.poll(() => linesOf(reply, 'lives-on'), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);

    proxy.dropAll();
    await expect
      .poll(() => reply.locator('.reply-state').textContent(), { timeout: 5_000 })
      .toBe(text('replyInterrupted'));
    const cutAt = await linesOf(reply, 'lives-on');

    // The panel comes back through the relay to the same broker, whose agent went on meanwhile.
    await expect.poll(() => reply.getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
    expect(await replies.count()).toBe(1);
    expect(await reply.getByRole('alert').count()).toBe(0);
    expect(await linesOf(reply, 'lives-on')).toBeGreaterThan(cutAt);
    expect(await reply.locator('.body').textContent()).toMatch(/Line 40 of 40 \(lives-on\)/);
  });
});
