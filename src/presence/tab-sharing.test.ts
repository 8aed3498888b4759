import { describe, expect, it } from 'vitest';
import { TabOwnership } from '../mcp-server/tab-ownership';
import { TabSharing, type SharingAgent } from './tab-sharing';

const ADA = { id: 'agent-ada', name: 'Ada' };
const BOB = { id: 'agent-bob', name: 'Bob' };
const page = (id: number, title: string, url = `https://app.example/${id}`) => ({ id, title, url });

function setUp(agents: SharingAgent[] = [ADA, BOB]) {
  const ownership = new TabOwnership();
  let connected = agents;
  const sharing = new TabSharing(ownership, {
    agents: () => connected,
    agentName: (id) => ({ [ADA.id]: ADA.name, [BOB.id]: BOB.name })[id],
    untitled: 'Untitled tab',
  });
  let changes = 0;
  sharing.onChange(() => changes++);
  return {
    ownership,
    sharing,
    changes: () => changes,
    connect: (now: SharingAgent[]) => (connected = now),
  };
}

describe('TabSharing', () => {
  it('offers the web page in front to every agent that works in tabs of its own, and shares it without moving anything', () => {
    const { sharing, ownership } = setUp();
    sharing.frontIs(page(5, 'Inbox'));
    expect(sharing.front()).toEqual({ kind: 'web', tabId: 5, title: 'Inbox', shareWith: [ADA, BOB] });
    sharing.share(ADA.id, 5);
    expect([ownership.ownerOf(5), ownership.currentOf(ADA.id)]).toEqual([ADA.id, 5]);
    expect(sharing.front()).toEqual({
      kind: 'web',
      tabId: 5,
      title: 'Inbox',
      holder: { agentId: ADA.id, agentName: 'Ada' },
      takeBack: 'Inbox',
      shareWith: [BOB],
    });
  });

  it('gives the tab to a second agent, taking it from the first, and takes it back', () => {
    const { sharing, ownership } = setUp();
    sharing.frontIs(page(5, 'Inbox'));
    sharing.share(ADA.id, 5);
    sharing.share(BOB.id, 5);
    expect([ownership.ownerOf(5), ownership.tabsOf(ADA.id)]).toEqual([BOB.id, []]);
    sharing.takeBack(5);
    expect(ownership.ownerOf(5)).toBeUndefined();
  });

  it('shares only web pages, only the tab shown, and only with an agent offered', () => {
    const { sharing, ownership } = setUp([ADA]);
    sharing.frontIs({ id: 1, title: 'New Tab', url: 'chrome://newtab/' });
    expect(sharing.front()).toEqual({ kind: 'not-web', tabId: 1, title: 'New Tab', shareWith: [ADA] });
    sharing.share(ADA.id, 1);
    sharing.frontIs(page(2, 'Docs'));
    sharing.share(ADA.id, 1);
    sharing.share(BOB.id, 2);
    expect(ownership.record().owners).toEqual([]);
  });

  it('offers the tab to the MCP clients seen through a connected agent, even one that follows the tab in front', () => {
    const { sharing, ownership, connect } = setUp([{ ...ADA, follows: true }, BOB]);
    const inspector = `${ADA.id}/mcp:s1`;
    sharing.frontIs(page(5, 'Inbox'));
    expect(sharing.front()).toMatchObject({ shareWith: [BOB] });
    sharing.nameClient(inspector, 'Inspector');
    // Ada herself is not offered (she follows the tab in front); the client that reached the panel through her is.
    expect(sharing.front()).toMatchObject({ shareWith: [{ id: inspector, name: 'Ada', client: 'Inspector' }, BOB] });
    sharing.share(ADA.id, 5);
    expect(ownership.ownerOf(5)).toBeUndefined();
    sharing.share(inspector, 5);
    expect([ownership.ownerOf(5), ownership.currentOf(inspector)]).toEqual([inspector, 5]);
    expect(sharing.front()).toMatchObject({
      holder: { agentId: ADA.id, agentName: 'Ada', client: 'Inspector' },
      shareWith: [BOB],
    });
    // While its agent is away it is not offered; once its tabs are forgotten (the agent removed), never again.
    sharing.takeBack(5);
    connect([BOB]);
    expect(sharing.front()).toMatchObject({ shareWith: [BOB] });
    connect([ADA, BOB]);
    expect(sharing.front()).toMatchObject({ shareWith: [ADA, { id: inspector }, BOB] });
    ownership.forget(inspector);
    expect(sharing.front()).toMatchObject({ shareWith: [ADA, BOB] });
    sharing.share(inspector, 5);
    expect(ownership.ownerOf(5)).toBeUndefined();
  });

  it('shows page titles on one line, cut short, cleaned as tools show them', () => {
    const { sharing } = setUp();
    sharing.frontIs(page(1, 'Pay\n[e1] "now"\u200b'));
    expect(sharing.front()).toMatchObject({ title: 'Pay ⟦e1⟧ ”now”' });
    sharing.frontIs(page(2, 'x'.repeat(200)));
    expect((sharing.front() as { title: string }).title).toHaveLength(80);
    sharing.frontIs({ id: 3, title: '', url: 'https://app.example/blank' });
    expect(sharing.front()).toMatchObject({ title: 'https://app.example/blank' });
    sharing.frontIs({ id: 4, title: undefined, url: undefined });
    expect(sharing.front()).toMatchObject({ kind: 'not-web', title: 'Untitled tab' });
  });

  it('lists an agent’s tabs and its MCP clients’, telling tabs with one title apart', () => {
    const { sharing, ownership } = setUp();
    for (const tab of [page(1, 'Inbox'), page(2, 'Inbox'), page(3, 'Inbox (2)'), page(4, 'Report')]) sharing.seen(tab);
    ownership.give(1, ADA.id);
    ownership.opened(2, ADA.id, false);
    ownership.opened(3, `${ADA.id}/mcp:inspector`, true);
    ownership.give(4, BOB.id);
    expect(sharing.tabsOf(ADA.id)).toEqual([
      { tabId: 1, title: 'Inbox', takeBack: 'Inbox' },
      { tabId: 2, title: 'Inbox', takeBack: 'Inbox (2)' },
      { tabId: 3, title: 'Inbox (2)', takeBack: 'Inbox (2) (2)', client: null },
    ]);
    sharing.nameClient(`${ADA.id}/mcp:inspector`, 'Inspector');
    expect(sharing.tabsOf(ADA.id)[2]).toMatchObject({ client: 'Inspector' });
    // The tab in front names its "Take back" as the agent's list does.
    sharing.frontIs(page(2, 'Inbox'));
    expect(sharing.front()).toMatchObject({ takeBack: 'Inbox (2)', holder: { agentName: 'Ada' } });
  });

  it('names who holds the tab in front even when that agent is not connected now', () => {
    const { sharing, ownership, connect } = setUp();
    sharing.frontIs(page(1, 'Inbox'));
    ownership.give(1, ADA.id);
    connect([BOB]);
    expect(sharing.front()).toMatchObject({ holder: { agentId: ADA.id, agentName: 'Ada' }, shareWith: [BOB] });
  });

  it('tells the panel when what it shows changes, and only then', () => {
    const { sharing, ownership, changes } = setUp();
    sharing.frontIs(page(1, 'Inbox'));
    expect(changes()).toBe(1);
    sharing.frontIs(page(1, 'Inbox'));
    sharing.seen(page(9, 'Elsewhere'));
    expect(changes()).toBe(1);
    sharing.frontIs(page(1, 'Inbox (1 new)'));
    ownership.opened(9, ADA.id, true);
    sharing.seen(page(9, 'Elsewhere, renamed'));
    expect(changes()).toBe(4);
    sharing.gone(1);
    expect([changes(), sharing.front()]).toEqual([5, { kind: 'none' }]);
  });
});
