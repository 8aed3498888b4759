/**
 * An organisation's managed policy, end to end: a real policy file where Debian's Chromium reads
 * it, for a copy of the test build with an id of its own, read by the panel through
 * `chrome.storage.managed`. The policy wins in the gates: a site the person allowed but the policy
 * leaves out is refused, act mode locked off refuses writes, a tool the policy does not offer is
 * not listed, a forbidden broker cannot be added, and "always confirm" offers no "for this site".
 * A policy changed while the panel runs applies to the next call.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  sendMessage,
  type Launched,
} from './harness';
import { ask, closeSettings, confirmation, openSettings } from './panel-helpers';
import { reloadPolicies, startPolicyRig, type PolicyRig } from './policy-rig';

const TOKEN = 'policy-token_1';

describe('managed policy', () => {
  let rig: PolicyRig;
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;
  let panel: Page;
  let policy: Record<string, unknown>;

  beforeAll(async () => {
    rig = startPolicyRig();
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0, extensionIds: [rig.extensionId] });
    fixtures = await startFixtureServer();
    policy = {
      AllowedSites: [fixtures.allowed],
      AllowedBrokers: [`ws://127.0.0.1:${broker.port}/*`],
      BrokerOffers: [{ broker: '*', browserTools: ['snapshot', 'tabs', 'find', 'type'] }],
      ActModeLockedOff: true,
      NotAKey: true,
    };
    rig.write(policy);
    launched = await launchWithExtension(rig.dist);
    expect(launched.extensionId).toBe(rig.extensionId);
    panel = await openPanelTab(launched);
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
    rig?.close();
  });

  it('reads the policy Chromium loaded from the file (positive control)', async () => {
    const managed = await panel.evaluate(() => chrome.storage.managed.get(null));
    // Chromium drops what the schema does not know before the extension sees it.
    expect(managed).toEqual({
      AllowedSites: policy.AllowedSites,
      AllowedBrokers: policy.AllowedBrokers,
      BrokerOffers: policy.BrokerOffers,
      ActModeLockedOff: true,
    });
  });

  it('refuses to add an agent on a broker the policy does not name', async () => {
    await addAgentThroughForm(panel, { name: 'Elsewhere', url: 'ws://127.0.0.1:9/acp', token: TOKEN });
    await expect
      .poll(() => panel.getByRole('alert').allInnerTexts())
      .toContainEqual('Your organisation does not allow connecting to ws://127.0.0.1:9/acp.');
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
  });

  it('shows what the organisation set, locked, and the keys it read', async () => {
    await openSettings(panel);
    const section = panel.getByRole('region', { name: 'Set by your organisation' });
    await expect
      .poll(() => section.getByRole('list', { name: 'Policy keys in force' }).innerText())
      .toMatch(/ActModeLockedOff: true/);
    const actMode = panel.getByRole('switch', { name: 'Act mode' });
    expect(await actMode.isDisabled()).toBe(true);
    expect(await actMode.isChecked()).toBe(false);
    expect(await panel.locator('#act-mode-hint').innerText()).toMatch(/^Set by your organisation\./);
    await allowSite(panel, fixtures.allowed);
    await allowSite(panel, fixtures.other);
    await panel
      .getByRole('list', { name: 'Allowed sites' })
      .getByText(/outside the sites your organisation allows/)
      .waitFor();
    await closeSettings(panel);
  });

  it('refuses a site outside the policy though the person allowed it, and writes while act mode is locked off', async () => {
    const other = await openActiveTab(launched, `${fixtures.other}/second.html`);
    const refused = await ask(panel, 'snapshot', /outside the sites your organisation allows/);
    expect(refused).not.toContain('# snapshot');
    await other.close();
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    await ask(panel, 'snapshot', /# snapshot — Tabwright demo page/);
    await ask(panel, 'type hello into Your name', /act mode is off/i);
    // A tool the policy does not offer is not listed to the agent.
    await ask(panel, 'click Count', /offers no click tool/);
    expect(await confirmation(panel).count()).toBe(0);
    await page.close();
  });

  it('applies a policy change on the next call: act mode unlocked, every write confirmed, no "for this site"', async () => {
    rig.write({ ...policy, ActModeLockedOff: false, AlwaysConfirm: true, BrokerOffers: [{ broker: '*' }] });
    await reloadPolicies(launched.context);
    await expect
      .poll(() => panel.evaluate(() => chrome.storage.managed.get('AlwaysConfirm')))
      .toEqual({
        AlwaysConfirm: true,
      });
    await openSettings(panel);
    const actMode = panel.getByRole('switch', { name: 'Act mode' });
    await expect.poll(() => actMode.isDisabled()).toBe(false);
    await actMode.check();
    await closeSettings(panel);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    for (let round = 0; round < 2; round++) {
      await sendMessage(panel, 'click Count');
      const card = confirmation(panel);
      await card.waitFor({ timeout: 30_000 });
      expect(await card.getByRole('button', { name: 'Allow for this site' }).count()).toBe(0);
      await card.getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => page.locator('#clicks').innerText(), { timeout: 15_000 }).toBe(String(round + 1));
    }
    // Locked off again while the person's own switch is on: the gate refuses, not only the switch.
    rig.write({ ...policy, BrokerOffers: [{ broker: '*' }] });
    await reloadPolicies(launched.context);
    await expect
      .poll(() => panel.evaluate(() => chrome.storage.managed.get('ActModeLockedOff')))
      .toEqual({ ActModeLockedOff: true });
    const stored = await panel.evaluate(() => chrome.storage.local.get('settings'));
    expect((stored.settings as { actMode: boolean }).actMode).toBe(true);
    await ask(panel, 'click Count', /act mode is off/i);
    expect(await page.locator('#clicks').innerText()).toBe('2');
    expect(await confirmation(panel).count()).toBe(0);
    await page.close();
  });
});
