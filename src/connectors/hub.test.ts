import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionGrants } from '../mcp-server/gates/call-gate';
import type { AuditEntry, GateEnvironment } from '../mcp-server/gates/types';
import type { ConnectorSettings } from '../shared/settings';
import { MemoryArea } from '../shared/stores';
import { builtinConnectors } from './builtin';
import { FakeTabPort } from './fake-tab-port';
import { ConnectorHub, connectorServerKey, type ServersChange } from './hub';
import { RecipeStore } from './recipe-store';

const RECIPE = readFileSync(
  join(import.meta.dirname, '../../test/fixtures/connectors/redmine-my-issues.recipe.json'),
  'utf8',
);

function hubWith(allowed = true) {
  let settings: Record<string, ConnectorSettings> = {};
  const area = new MemoryArea();
  const changes: ServersChange[] = [];
  const audited: AuditEntry[] = [];
  const gates = {
    originRefusal: async (url: string | undefined) => (allowed ? undefined : `Refused: ${url} is not an allowed site.`),
    now: () => 0,
    secretValues: () => [],
    audit: (entry: AuditEntry) => void audited.push(entry),
  } as unknown as GateEnvironment;
  const hub = new ConnectorHub({
    version: '1',
    windowId: 1,
    builtins: builtinConnectors,
    recipes: new RecipeStore(area),
    port: new FakeTabPort({ pages: { '/my/account': '<a class="logout">Sign out</a>' } }),
    gates,
    grants: new SessionGrants(),
    connectorSettings: () => settings,
    updateConnectorSettings: async (change) => void (settings = change(settings)),
    healthMinutes: () => 10,
    timers: { setInterval: () => 0, clearInterval: () => undefined, now: () => 0 },
    promptSignIn: () => undefined,
  });
  hub.onServersChange((change) => changes.push(change));
  const agent = () => ({ id: 'a1', name: () => 'Agent' });
  /** Every enabled connector's server for the agent (which of them it is offered is `AgentOffers`' call). */
  const serversFor = (facts: ReturnType<typeof agent>) =>
    hub.enabled().map((c) => ({ key: connectorServerKey(c.id), server: hub.serverFor(facts, c.id) }));
  return { hub, area, changes, agent, serversFor, audited, settings: () => settings };
}

describe('the connector hub', () => {
  it('offers enabled connectors only', async () => {
    const { hub, changes, agent, serversFor } = hubWith();
    expect(serversFor(agent())).toEqual([]);
    await hub.setEnabled('fossil', true);
    await hub.setEnabled('redmine', true);
    expect(changes).toEqual([
      { kind: 'tools', connectorId: 'fossil' },
      { kind: 'declared' },
      { kind: 'tools', connectorId: 'redmine' },
      { kind: 'declared' },
    ]);
    expect(serversFor(agent()).map((s) => `${s.key} ${s.server.name}`)).toEqual([
      'connector:fossil fossil',
      'connector:redmine redmine',
    ]);
    // The same server object is kept for the agent, so its declared id stays stable.
    expect(serversFor(agent())[0]!.server).toBe(serversFor(agent())[0]!.server);
  });

  it('takes sites the user types, refusing what is not a web address', async () => {
    const { hub } = hubWith();
    expect(await hub.addSite('fossil', 'ftp://x')).toBe('Only http and https sites can be used.');
    expect(await hub.addSite('fossil', 'http://127.0.0.1:8080')).toBeUndefined();
    expect(await hub.addSite('fossil', 'http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/ is already listed.');
    expect(hub.site(hub.get('fossil')!)).toBe('http://127.0.0.1:8080/');
    expect(hub.signInUrl(hub.get('fossil')!)).toBe('http://127.0.0.1:8080/login');
    await hub.removeSite('fossil', 'http://127.0.0.1:8080/');
    expect(hub.site(hub.get('fossil')!)).toBe(undefined);
  });

  it('imports a recipe, keeps it across loads, and announces a changed tool list when it is replaced', async () => {
    const { hub, area, changes, agent, serversFor, audited } = hubWith();
    const imported = await hub.importRecipe(RECIPE);
    expect('connector' in imported && imported.connector.kind).toBe('recipe');
    await hub.setEnabled('myredmine', true);
    const [entry] = serversFor(agent());
    expect(entry!.server.list().map((t) => t.name)).toEqual(['myredmine.list_my_issues']);

    await hub.importRecipe(RECIPE.replace('"list_my_issues"', '"my_issues"'));
    expect(changes.at(-1)).toEqual({ kind: 'tools', connectorId: 'myredmine' });
    // The declared server now lists the new tools; list_changed tells the agent to list again.
    expect(entry!.server.list().map((t) => t.name)).toEqual(['myredmine.my_issues']);
    expect(serversFor(agent())[0]!.server).toBe(entry!.server);

    const again = new RecipeStore(area);
    expect((await again.load()).recipes.map((r) => Object.keys(r.tools))).toEqual([['my_issues']]);

    await hub.removeRecipe('myredmine');
    expect(changes.at(-1)).toEqual({ kind: 'tools', connectorId: 'myredmine' });
    expect(entry!.server.list()).toEqual([]);
    const removed = await entry!.server.call(
      'myredmine.my_issues',
      {},
      { signal: new AbortController().signal, requestId: '1' },
    );
    // Refused like any call that cannot run, and audited.
    expect(audited.at(-1)).toMatchObject({ tool: 'myredmine.my_issues', outcome: 'refused:exposure' });
    expect(removed).toMatchObject({
      isError: true,
      content: [{ text: 'The myredmine connector was removed from Tabwright.' }],
    });
    expect(hub.get('myredmine')).toBeUndefined();
    expect((await new RecipeStore(area).load()).recipes).toEqual([]);
  });

  it('refuses a recipe that takes a built-in id, or does not validate', async () => {
    const { hub } = hubWith();
    expect(await hub.importRecipe(RECIPE.replace('"id": "myredmine"', '"id": "fossil"'))).toEqual({
      errors: ['id: "fossil" is the id of a built-in connector; choose another id.'],
    });
    expect(await hub.importRecipe('[]')).toMatchObject({ errors: [expect.stringContaining('(top level)')] });
  });

  it('reports a stored recipe that no longer reads instead of dropping it silently', async () => {
    const { hub, area } = hubWith();
    await area.set({ 'connector-recipes': [{ id: 'old', format: 'tabwright-recipe/0' }] });
    expect(await hub.load()).toEqual([expect.stringContaining('The stored recipe old no longer reads')]);
  });

  it('health: no site yet, site not allowed, then the connector’s own check', async () => {
    const blocked = hubWith(false);
    const fossil = blocked.hub.get('fossil')!;
    expect((await blocked.hub.health.check(fossil)).state).toBe('no-site');
    await blocked.hub.addSite('fossil', 'http://127.0.0.1:9');
    expect(await blocked.hub.health.check(fossil)).toMatchObject({ state: 'not-allowed' });

    const open = hubWith(true);
    await open.hub.importRecipe(RECIPE);
    await open.hub.addSite('myredmine', 'http://app.test/');
    expect((await open.hub.health.check(open.hub.get('myredmine')!)).state).toBe('healthy');
  });
});
