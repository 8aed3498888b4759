/**
 * The audit log forwarded to an organisation's collector, end to end: a real policy file names a
 * real HTTP collector on an origin the extension holds no permission for, so each send passes a
 * CORS preflight. The collector is down while an MCP client's calls fill the log past its bound
 * and the panel reloads; the panel is closed, the collector comes up, and the service worker
 * delivers: a line for what the bound dropped, then every kept entry, in chain order, repeats only
 * under the same id. Settings shows the queue and the failure, then that it got through.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import type { ForwardLine } from '../../src/audit-forward/plan';
import { GENESIS, verifyChain, type AuditCheckpoint } from '../../src/mcp-server/gates/audit-chain';
import type { AuditEntry } from '../../src/mcp-server/gates/types';
import { connectMcpClient } from './broker-mcp-client';
import { startAuditCollector, type AuditCollector } from './audit-collector';
import { addAgentThroughForm, allowSite, launchWithExtension, openPanelTab, type Launched } from './harness';
import { closeSettings, openSettings } from './panel-helpers';
import { startPolicyRig, type PolicyRig } from './policy-rig';

const TOKEN = 'forward-broker-token';
const COLLECTOR_TOKEN = 'collector-secret_1';
const RETENTION = 100;

describe('audit forwarding', () => {
  let rig: PolicyRig;
  let collector: AuditCollector;
  let broker: RunningBroker;
  let launched: Launched;
  let client: Client;
  let panel: Page;

  beforeAll(async () => {
    rig = startPolicyRig();
    collector = await startAuditCollector({ token: COLLECTOR_TOKEN, extensionId: rig.extensionId });
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0, extensionIds: [rig.extensionId] });
    rig.write({
      AuditRetention: RETENTION,
      AuditForwarding: { url: collector.url, token: COLLECTOR_TOKEN, batchSize: 40 },
      ReportDownloads: false,
      PageTools: false,
      FollowCurrentTab: false,
    });
    launched = await launchWithExtension(rig.dist);
    panel = await openPanelTab(launched);
    // "Follow my current tab" is locked off by the policy.
    await addAgentThroughForm(panel, { name: 'Broker', url: broker.url, token: TOKEN, follow: false });
    await panel.getByRole('button', { name: /Broker: connected/ }).waitFor({ timeout: 30_000 });
    client = await connectMcpClient(broker, TOKEN, 'forward-client');
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await launched?.close();
    await broker?.close();
    await collector?.close();
    rig?.close();
  });

  /** Calls that each write one audit entry, ten at a time. */
  const calls = async (count: number) => {
    for (let done = 0; done < count; done += 10) {
      const now = Math.min(10, count - done);
      await Promise.all(Array.from({ length: now }, () => client.callTool({ name: 'tabwright.tabs', arguments: {} })));
    }
  };
  const stored = (page: Page) =>
    page.evaluate(async () => {
      const { audit, auditCheckpoint } = await chrome.storage.local.get(['audit', 'auditCheckpoint']);
      return { entries: (audit ?? []) as AuditEntry[], checkpoint: auditCheckpoint as AuditCheckpoint | undefined };
    });
  const status = (page: Page) => page.getByRole('region', { name: 'Set by your organisation' }).getByRole('status');

  it('reaches the collector only through CORS: the build holds no permission for its origin', async () => {
    expect(
      await panel.evaluate((origin) => chrome.permissions.contains({ origins: [`${origin}/*`] }), collector.origin),
    ).toBe(false);
  });

  it('keeps the queue while the collector is down and says so, across a panel reload', async () => {
    await calls(60);
    await expect.poll(async () => (await stored(panel)).entries.length).toBeGreaterThanOrEqual(60);
    await openSettings(panel);
    await expect
      .poll(() => status(panel).innerText())
      .toMatch(
        new RegExp(
          `^Forwarding to ${collector.origin.replace(/[[\]]/g, '\\$&')}: \\d+ waiting, last sent never\\. ` +
            'The last try failed: the collector could not be reached',
        ),
      );
    await closeSettings(panel);
    expect(collector.requests.length).toBeGreaterThan(0);
    expect(collector.lines).toEqual([]);

    await panel.reload();
    await panel.getByRole('button', { name: /Broker: connected/ }).waitFor({ timeout: 30_000 });
    await calls(RETENTION - 40);
    // Past the bound: the oldest entries were dropped before they could be sent.
    await expect.poll(async () => (await stored(panel)).checkpoint?.dropped ?? 0).toBeGreaterThanOrEqual(20);
  });

  it('delivers, with the panel closed, every entry in chain order once the collector is up', async () => {
    const { entries, checkpoint } = await stored(panel);
    expect(entries).toHaveLength(RETENTION);
    await panel.close();
    collector.up();
    const total = checkpoint!.dropped + entries.length;
    const lastPosition = () => {
      const last = collector.lines.at(-1);
      return last?.kind === 'entry' ? last.position : 0;
    };
    await expect.poll(lastPosition, { timeout: 30_000 }).toBe(total);

    // Duplicates only by id: a repeated id carries the very same line.
    const byId = new Map<string, ForwardLine>();
    for (const line of collector.lines) {
      if (byId.has(line.id)) expect(line).toEqual(byId.get(line.id));
      else byId.set(line.id, line);
    }
    const [gap, ...rest] = [...byId.values()];
    expect(gap).toEqual({
      id: `dropped:1-${checkpoint!.dropped}`,
      kind: 'dropped',
      first: 1,
      last: checkpoint!.dropped,
      count: checkpoint!.dropped,
      prev: GENESIS,
      next: checkpoint!.hash,
    });
    expect(rest.map((line) => (line.kind === 'entry' ? line.position : -1))).toEqual(
      entries.map((_, i) => checkpoint!.dropped + i + 1),
    );
    const copy = rest.map((line) => (line.kind === 'entry' ? line.entry : undefined));
    expect(copy).toEqual(entries);
    expect(rest.map((line) => line.id)).toEqual(entries.map((entry) => entry.hash));
    expect(
      await verifyChain(copy as AuditEntry[], {
        dropped: checkpoint!.dropped,
        hash: gap!.kind === 'dropped' ? gap!.next : '',
      }),
    ).toMatchObject({ ok: true });

    // Each send was preflighted, then carried the bearer token.
    expect(
      collector.requests.some((r) => r.method === 'OPTIONS' && /authorization/i.test(r.requestHeaders ?? '')),
    ).toBe(true);
    expect(
      collector.requests
        .filter((r) => r.method === 'POST')
        .every((r) => r.authorization === `Bearer ${COLLECTOR_TOKEN}`),
    ).toBe(true);

    panel = await openPanelTab(launched);
    await openSettings(panel);
    await expect.poll(() => status(panel).innerText()).toMatch(/: 0 waiting, last sent (?!never)/);
    expect(await status(panel).innerText()).not.toMatch(/failed/);
  });

  it('shows downloads reporting, page tools and "Follow my current tab" locked off when the policy turns them off', async () => {
    await openSettings(panel);
    await allowSite(panel, `http://127.0.0.1:${broker.port}`);
    // The page tools section lists the allowed sites as Settings opens.
    await closeSettings(panel);
    await openSettings(panel);
    const locked = [
      [panel.getByRole('switch', { name: 'Report downloads' }), '#report-downloads-hint'],
      [
        panel.getByRole('checkbox', { name: `Offer tools declared by http://127.0.0.1:${broker.port}` }),
        '#page-tools-hint',
      ],
    ] as const;
    for (const [control, hint] of locked) {
      expect(await control.isDisabled()).toBe(true);
      expect(await control.isChecked()).toBe(false);
      expect(await panel.locator(hint).innerText()).toMatch(/^Set by your organisation\./);
    }
    const follow = panel.getByRole('checkbox', { name: 'Follow my current tab' });
    expect(await follow.count()).toBeGreaterThan(0);
    for (const box of await follow.all()) {
      expect(await box.isDisabled()).toBe(true);
      expect(await box.isChecked()).toBe(false);
    }
    expect(
      await panel.locator('.agent-form .hint', { hasText: /^Set by your organisation\. / }).count(),
    ).toBeGreaterThan(0);
  });
});
