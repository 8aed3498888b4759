// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { TabOwnership } from '../../mcp-server/tab-ownership';
import { TabSharing, type SharingAgent } from '../../presence/tab-sharing';
import { ShareTabView } from './share-tab';

const ADA = { id: 'agent-ada', name: 'Ada' };
const BOB = { id: 'agent-bob', name: 'Bob' };

function setUp(agents: SharingAgent[] = [ADA, BOB]) {
  const ownership = new TabOwnership();
  const sharing = new TabSharing(ownership, { agents: () => agents, agentName: () => undefined, untitled: 'Untitled' });
  const view = new ShareTabView(sharing);
  document.body.replaceChildren(view.element);
  sharing.onChange(() => view.render());
  const buttons = () => [...view.element.querySelectorAll('button')];
  const names = () => buttons().map((b) => b.getAttribute('aria-label') ?? b.textContent);
  const press = (name: string) =>
    buttons()
      .find((b) => (b.getAttribute('aria-label') ?? b.textContent) === name)!
      .click();
  return { ownership, sharing, view, names, press };
}

describe('the tab in front, above the message box', () => {
  it('offers a "Share this tab with" button per agent, then says who has it and offers "Take back"', () => {
    const { sharing, ownership, view, names, press } = setUp();
    sharing.frontIs({ id: 3, title: 'Inbox', url: 'https://mail.example/' });
    expect(view.element.getAttribute('aria-label')).toBe('Tab in front');
    expect(view.element.hidden).toBe(false);
    expect(names()).toEqual(['Share this tab with Ada', 'Share this tab with Bob']);
    press('Share this tab with Ada');
    expect(ownership.ownerOf(3)).toBe(ADA.id);
    expect(view.element.textContent).toContain('Shared with Ada');
    expect(names()).toEqual(['Share this tab with Bob', 'Take back Inbox']);
    press('Take back Inbox');
    expect(ownership.ownerOf(3)).toBeUndefined();
  });

  it('names an MCP client that has the tab by the name it gave, through its agent', () => {
    const { sharing, ownership, view } = setUp();
    sharing.frontIs({ id: 3, title: 'Inbox', url: 'https://mail.example/' });
    ownership.opened(3, `${ADA.id}/mcp:x`, true);
    expect(view.element.textContent).toContain('Shared with an MCP client through Ada');
    sharing.nameClient(`${ADA.id}/mcp:x`, 'Inspector');
    expect(view.element.textContent).toContain('Shared with Inspector through Ada');
  });

  it('offers the tab to an MCP client by its name through its agent', () => {
    const { sharing, ownership, names, press } = setUp([ADA]);
    sharing.frontIs({ id: 3, title: 'Inbox', url: 'https://mail.example/' });
    sharing.nameClient(`${ADA.id}/mcp:x`, 'Inspector');
    expect(names()).toEqual(['Share this tab with Ada', 'Share this tab with Inspector through Ada']);
    press('Share this tab with Inspector through Ada');
    expect(ownership.ownerOf(3)).toBe(`${ADA.id}/mcp:x`);
  });

  it('says a browser page cannot be shared, and shows nothing when no agent could take a tab', () => {
    const { sharing, view, names } = setUp();
    sharing.frontIs({ id: 1, title: 'Tabwright', url: 'chrome-extension://abc/src/sidepanel/index.html' });
    expect(view.element.textContent).toBe(
      'Only web pages (http or https) can be shared with an agent, and the tab in front is not one.',
    );
    expect(names()).toEqual([]);
    const alone = setUp([]);
    alone.sharing.frontIs({ id: 3, title: 'Inbox', url: 'https://mail.example/' });
    expect(alone.view.element.hidden).toBe(true);
  });
});
