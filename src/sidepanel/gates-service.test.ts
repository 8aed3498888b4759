// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { SHIPPED_BLOCKLIST } from '../mcp-server/gates/blocklist';
import { MAX_DECLARED_SERVERS } from '../mcp-server/gates/exposure';
import type { ToolServer } from '../mcp-server/mcp-core';
import { AgentProfile } from '../shared/settings';
import { SettingsStore } from '../shared/settings-store';
import { MemoryArea } from '../shared/stores';
import { AgentOffers } from './agent-offers';
import { startGates } from './gates-service';
import { settingsView } from './views/settings';

const server = (name: string) => ({ key: name, server: { name } as ToolServer });

async function setup(area = new MemoryArea(), connectorIds: string[] = []) {
  const { store } = await SettingsStore.open(area);
  await store.update((s) => ({
    ...s,
    agents: [AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:1/acp' })],
  }));
  const prompts = document.createElement('div');
  document.body.replaceChildren(prompts);
  const wiring = await startGates({ local: area, store, promptsRoot: prompts });
  const offers = new AgentOffers({
    store,
    browserServer: (profile) => server(profile.serverName).server,
    others: () => connectorIds.map((id) => ({ name: id, key: id, server: () => server(id).server })),
    mintId: () => crypto.randomUUID(),
  });
  const reconnected: string[] = [];
  const actions = wiring.settingsActions({
    offers,
    agentsSection: () => document.createElement('section'),
    reconnect: (id) => reconnected.push(id),
    openAudit: () => undefined,
    watchOffers: () => () => undefined,
  });
  return { wiring, offers, actions, settings: () => store.get(), area, reconnected };
}

describe('the gates service behind Settings', () => {
  beforeEach(() => document.body.replaceChildren());

  it('adds, removes and restores blocklist entries, keeping the user’s own', async () => {
    const { actions, settings } = await setup();
    expect(await actions.blocklist.add('co.uk')).toMatch(/public suffix/);
    expect(await actions.blocklist.add('bank.example/settings')).toBeUndefined();
    expect(await actions.blocklist.add('https://bank.example/Settings/')).toMatch(/already on your list/);
    expect(actions.siteBlockedBy('https://bank.example')).toBeUndefined();
    await actions.blocklist.add('127.0.0.1');
    expect(actions.siteBlockedBy('http://127.0.0.1:8080')).toBe('127.0.0.1');

    const paypal = SHIPPED_BLOCKLIST.find((e) => e.id === 'paypal')!;
    await actions.blocklist.remove(paypal.id);
    expect(actions.blocklist.entries().some((e) => e.id === 'paypal')).toBe(false);
    expect(actions.blocklist.removedCount()).toBe(1);
    await actions.blocklist.remove('custom:127.0.0.1');
    expect(actions.siteBlockedBy('http://127.0.0.1:8080')).toBeUndefined();

    await actions.blocklist.restoreDefaults();
    expect(actions.blocklist.entries().some((e) => e.id === 'paypal')).toBe(true);
    expect(settings().blocklist.custom.map((e) => e.name)).toEqual(['bank.example/settings']);
  });

  it('the gate sees blocklist edits on the next call', async () => {
    const { wiring, actions } = await setup();
    const settingsWithSite = actions.settings();
    settingsWithSite.allowedSites.push('http://127.0.0.1:9');
    expect(await wiring.gates.originRefusal('http://127.0.0.1:9/x')).toMatch(/Chrome has not granted|not an allowed/);
    await actions.blocklist.add('127.0.0.1');
    expect(await wiring.gates.originRefusal('http://127.0.0.1:9/x')).toMatch(/high-risk blocklist \(127.0.0.1\)/);
  });

  it('declares at most 8 servers, honours hidden ones and browser access, and refuses at once when access goes', async () => {
    const connectors = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const { offers, actions, settings } = await setup(new MemoryArea(), connectors);
    const profile = settings().agents[0]!;
    const declared = offers.declare(profile).map(({ server }) => server.name);
    expect(declared).toHaveLength(MAX_DECLARED_SERVERS);
    expect(declared[0]).toBe('tabwright');
    expect(actions.exposure.declaredNow('a1')).toEqual(declared);

    await actions.exposure.setOffered('a1', 'c0', false);
    expect(offers.declare(profile).map(({ server }) => server.name)).not.toContain('c0');

    const exposed = offers.exposedFor('a1', 'tabwright');
    expect(exposed()).toBe(true);
    await actions.exposure.setBrowserAccess('a1', false);
    expect(exposed()).toBe(false);
    expect(offers.declare(profile)).toEqual([]);
  });

  it('renders the exposure section with the count and a reconnect when the declaration is stale', async () => {
    const { offers, actions, settings, reconnected } = await setup(new MemoryArea(), ['fossil']);
    offers.declare(settings().agents[0]!);
    const view = settingsView(actions);
    document.body.append(view);
    expect(view.textContent).toContain('2 of at most 8 servers declared.');
    const offerFossil = [...view.querySelectorAll('label')].find((l) => l.textContent === 'Offer fossil to Demo')!;
    const box = document.getElementById(offerFossil.htmlFor) as HTMLInputElement;
    box.click();
    await new Promise((r) => setTimeout(r, 0));
    expect(settings().agents[0]!.hiddenServers).toEqual(['fossil']);
    expect(view.textContent).toContain('1 of at most 8 servers declared.');
    const reconnect = [...view.querySelectorAll('button')].find((b) => b.textContent === 'Reconnect Demo')!;
    reconnect.click();
    expect(reconnected).toEqual(['a1']);
    // The reconnect declared the servers without it. Offered again, it reaches the agent by
    // itself, so no reconnect is asked for.
    offers.declare(settings().agents[0]!);
    (document.getElementById(offerFossil.htmlFor) as HTMLInputElement).click();
    await new Promise((r) => setTimeout(r, 0));
    expect([...view.querySelectorAll('button')].some((b) => b.textContent === 'Reconnect Demo')).toBe(false);
  });

  it('keeps the kill switch across a reload, and a reconnect releases it', async () => {
    const area = new MemoryArea();
    const first = await setup(area);
    first.wiring.killSwitch.engage();
    await new Promise((r) => setTimeout(r, 0));
    const second = await setup(area);
    expect(second.wiring.killSwitch.engaged).toBe(true);
    expect(document.body.textContent).not.toContain('All agents are disconnected.');
    document.body.append(
      second.wiring.banner(
        () => [{ id: 'a1', name: 'Demo' }],
        () => second.wiring.killSwitch.release(),
      ),
    );
    expect(document.body.textContent).toContain('All agents are disconnected.');
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Reconnect Demo')!.click();
    expect(second.wiring.killSwitch.engaged).toBe(false);
    await new Promise((r) => setTimeout(r, 0));
    expect((await setup(area)).wiring.killSwitch.engaged).toBe(false);
  });

  it('withdraws waiting confirmations and forgets site grants when disconnected', async () => {
    const { wiring } = await setup();
    wiring.grants.add('Demo', 'tabwright', 'click', 'https://a.example');
    const answer = wiring.tray.confirm(
      { agentName: 'Demo', server: 'tabwright', tool: 'click', origin: 'https://a.example', args: {} },
      60_000,
      new AbortController().signal,
    );
    wiring.disconnected();
    await expect(answer).resolves.toBe('cancelled');
    expect(wiring.grants.size).toBe(0);
  });

  it('keeps secret values out of sight and feeds them to the gates', async () => {
    const { wiring, actions } = await setup();
    expect(await actions.secrets.add('IBAN', 'DE89370400440532013000')).toBeUndefined();
    expect(actions.secrets.names()).toEqual(['IBAN']);
    expect(wiring.gates.secretValues()).toEqual(['DE89370400440532013000']);
    const view = settingsView(actions);
    expect(view.textContent).not.toContain('DE89370400440532013000');
    expect(view.textContent).toContain('IBAN');
  });
});
