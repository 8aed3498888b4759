import { describe, expect, it } from 'vitest';
import { MAX_DECLARED_SERVERS } from '../mcp-server/gates/exposure';
import type { ToolServer } from '../mcp-server/mcp-core';
import { AgentProfile, type Settings } from '../shared/settings';
import { SettingsStore } from '../shared/settings-store';
import { MemoryArea } from '../shared/stores';
import { AgentOffers, BROWSER_SERVER_KEY, offerChoicesChanged, type ServedAgent } from './agent-offers';

async function setup(connectorIds: string[], allows?: (profile: AgentProfile, key: string) => boolean) {
  const area = new MemoryArea();
  const { store } = await SettingsStore.open(area);
  await store.update((s) => ({
    ...s,
    agents: [AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:1/acp' })],
  }));
  const made = new Map<string, { server: ToolServer; agent: ServedAgent }>();
  const make = (name: string, agent: ServedAgent) => {
    const key = `${agent.id}:${name}`;
    if (!made.has(key)) made.set(key, { server: { name } as ToolServer, agent });
    return made.get(key)!.server;
  };
  let minted = 0;
  const offers = new AgentOffers({
    store,
    browserServer: (profile, agent) => make(profile.serverName, agent),
    others: () =>
      connectorIds.map((id) => ({ name: id, key: `connector:${id}`, server: (agent: ServedAgent) => make(id, agent) })),
    mintId: () => `id-${++minted}`,
    ...(allows ? { allows } : {}),
  });
  const edit = (change: (profile: AgentProfile) => AgentProfile) =>
    store.update((s) => ({ ...s, agents: s.agents.map((a) => (a.id === 'a1' ? change(a) : a)) }));
  return { store, area, offers, made, edit, profile: () => store.get().agents[0]! };
}

const names = (servers: Array<{ server: ToolServer }>) => servers.map(({ server }) => server.name);

describe('what each agent is offered', () => {
  it('offers the browser tools first, then the enabled connectors, by stable key', async () => {
    const { offers, profile } = await setup(['fossil', 'redmine']);
    expect(offers.declare(profile()).map(({ key, server }) => `${key} ${server.name}`)).toEqual([
      `${BROWSER_SERVER_KEY} tabwright`,
      'connector:fossil fossil',
      'connector:redmine redmine',
    ]);
    expect(offers.candidates('a1')).toEqual(['tabwright', 'fossil', 'redmine']);
    expect(offers.declaredNow('a1')).toEqual(['tabwright', 'fossil', 'redmine']);
    expect(offers.candidates('nobody')).toEqual([]);
  });

  it('never declares a server the organisation’s policy leaves out, nor runs its calls', async () => {
    const { offers, profile } = await setup(['fossil', 'redmine'], (_profile, key) => key !== 'connector:fossil');
    expect(names(offers.declare(profile()))).toEqual(['tabwright', 'redmine']);
    expect(offers.candidates('a1')).toEqual(['tabwright', 'redmine']);
    expect(offers.exposedFor('a1', 'fossil')()).toBe(false);
  });

  it('leaves out hidden servers, and everything without browser access', async () => {
    const { offers, profile, edit } = await setup(['fossil', 'redmine']);
    await edit((a) => ({ ...a, hiddenServers: ['fossil'] }));
    expect(names(offers.declare(profile()))).toEqual(['tabwright', 'redmine']);
    await edit((a) => ({ ...a, hiddenServers: ['tabwright'] }));
    expect(names(offers.declare(profile()))).toEqual(['fossil', 'redmine']);
    await edit((a) => ({ ...a, hiddenServers: [], browserAccess: false }));
    expect(offers.declare(profile())).toEqual([]);
    expect(offers.exposure('a1')?.hidden).toEqual(['tabwright', 'fossil', 'redmine']);
  });

  it(`declares at most ${MAX_DECLARED_SERVERS} servers, the browser tools taking one`, async () => {
    const connectors = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const { offers, profile } = await setup(connectors);
    const declared = names(offers.declare(profile()));
    expect(declared).toHaveLength(MAX_DECLARED_SERVERS);
    expect(declared).toEqual(['tabwright', ...connectors.slice(0, MAX_DECLARED_SERVERS - 1)]);
    expect(offers.exposure('a1')?.overLimit).toEqual(connectors.slice(MAX_DECLARED_SERVERS - 1));
  });

  it('decides from the stored profile, not the one a connection started with', async () => {
    const { offers, profile, edit } = await setup(['fossil']);
    const started = profile();
    await edit((a) => ({ ...a, hiddenServers: ['fossil'] }));
    expect(names(offers.declare(started))).toEqual(['tabwright']);
  });

  it('tells a server at once when its agent is no longer offered it', async () => {
    const { offers, profile, edit, made } = await setup(['fossil']);
    offers.declare(profile());
    const fossil = made.get('a1:fossil')!.agent;
    const browser = made.get('a1:tabwright')!.agent;
    expect([fossil.exposed(), browser.exposed()]).toEqual([true, true]);
    await edit((a) => ({ ...a, hiddenServers: ['fossil'] }));
    expect([fossil.exposed(), browser.exposed()]).toEqual([false, true]);
    await edit((a) => ({ ...a, browserAccess: false }));
    expect(browser.exposed()).toBe(false);
    await edit((a) => ({ ...a, name: 'Renamed' }));
    expect(browser.name()).toBe('Renamed');
  });

  it('keeps one id per agent and server, stored in the profile', async () => {
    const { offers, area } = await setup(['fossil']);
    expect(offers.serverId('a1', 'connector:fossil')).toBeUndefined();
    const id = offers.ensureServerId('a1', 'connector:fossil');
    expect(offers.ensureServerId('a1', 'connector:fossil')).toBe(id);
    expect(offers.serverId('a1', 'connector:fossil')).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((area.data.get('settings') as Settings).agents[0]!.serverIds).toEqual({ 'connector:fossil': id });
    // An agent no longer stored keeps its id for the life of the panel.
    const gone = offers.ensureServerId('gone', BROWSER_SERVER_KEY);
    expect(offers.ensureServerId('gone', BROWSER_SERVER_KEY)).toBe(gone);
  });
});

describe('what the person chose to offer', () => {
  const demo = { id: 'a1', browserAccess: true, hiddenServers: ['fossil'] };
  it('changes when a server is shown or hidden, or browser access is turned', () => {
    expect(offerChoicesChanged([demo], [{ ...demo, hiddenServers: [] }])).toBe(true);
    expect(offerChoicesChanged([demo], [{ ...demo, hiddenServers: ['fossil', 'redmine'] }])).toBe(true);
    expect(offerChoicesChanged([demo], [{ ...demo, browserAccess: false }])).toBe(true);
    expect(offerChoicesChanged([demo], [demo, { ...demo, id: 'a2' }])).toBe(true);
  });
  it('does not change with anything else, nor with the order of hidden servers', () => {
    const two = { ...demo, hiddenServers: ['redmine', 'fossil'] };
    expect(offerChoicesChanged([demo], [{ ...demo, name: 'Renamed' } as typeof demo])).toBe(false);
    expect(offerChoicesChanged([{ ...demo, hiddenServers: ['fossil', 'redmine'] }], [two])).toBe(false);
  });
});
