import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, type Launched } from './harness';

const T = { timeout: 20_000 };

describe('agent settings', () => {
  let launched: Launched;
  let peer: ShowcasePeer;

  beforeAll(async () => {
    peer = await startShowcasePeer();
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  type Stored = { settings: { agents: Array<{ id: string; serverName: string }> } } & Record<string, unknown>;
  const stored = (panel: Page) => panel.evaluate(() => chrome.storage.local.get(null)) as Promise<Stored>;

  it('edits an agent with the token masked, refuses bad input, reconnects only when needed, and removes it', async () => {
    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Editable', url: peer.url, token: 'secret-token_123' });
    await expect.poll(() => panel.getByRole('button', { name: /^Editable: connected/ }).count(), T).toBe(1);
    const agentId = (await stored(panel)).settings.agents[0]!.id;
    expect((await stored(panel))[`token:${agentId}`]).toBe('secret-token_123');

    // From the chip's details straight to the editor.
    await panel.getByRole('button', { name: /^Editable: connected/ }).click();
    await panel.locator('#agent-details').getByRole('button', { name: 'Edit Editable' }).click();
    const form = panel.getByRole('form', { name: 'Edit Editable' });
    await form.waitFor(T);
    const token = form.getByLabel('Token', { exact: true });
    expect(await token.inputValue()).toBe('');
    expect(await token.getAttribute('type')).toBe('password');
    expect(await token.getAttribute('placeholder')).toBe('Stored — leave empty to keep it');
    expect(await panel.content()).not.toContain('secret-token_123');

    const save = form.getByRole('button', { name: 'Save' });
    const alertText = () => form.getByRole('alert').filter({ hasText: /./ }).allTextContents();
    await form.getByRole('textbox', { name: 'Agent name' }).fill('  ');
    await save.click();
    expect(await alertText()).toEqual(['Give the agent a name.']);
    expect(await panel.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await form.getByRole('textbox', { name: 'Agent name' }).fill('Editable');
    await form.getByRole('textbox', { name: 'Broker URL' }).fill('http://127.0.0.1:1/acp');
    await save.click();
    expect(await alertText()).toEqual(['Use ws:// for the broker, not http://.']);
    await form.getByRole('textbox', { name: 'Broker URL' }).fill(peer.url);
    await form.getByRole('textbox', { name: 'Declared server name' }).fill('bad name!');
    await save.click();
    expect((await alertText())[0]).toMatch(/^Use 1 to 32 letters/);
    expect((await stored(panel)).settings.agents[0]!.serverName).toBe('tabwright');

    // A new server name is part of the connection: the agent reconnects and declares it.
    const sessions = peer.sessions.length;
    await form.getByRole('textbox', { name: 'Declared server name' }).fill('katashiro');
    await save.click();
    await expect.poll(() => peer.sessions.length, T).toBe(sessions + 1);
    expect(peer.sessions.at(-1)!.servers).toContain('katashiro');
    expect((await stored(panel))[`token:${agentId}`]).toBe('secret-token_123');
    await expect.poll(() => panel.getByRole('button', { name: /^Editable: connected/ }).count(), T).toBe(1);

    // A new name is not: no new connection.
    await panel.getByRole('list', { name: 'Agents' }).getByRole('button', { name: 'Edit Editable' }).click();
    const again = panel.getByRole('form', { name: 'Edit Editable' });
    await again.getByRole('textbox', { name: 'Agent name' }).fill('Renamed');
    await again.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.getByRole('button', { name: /^Renamed: connected/ }).count(), T).toBe(1);
    expect(peer.sessions.length).toBe(sessions + 1);

    // Removing asks once more, then forgets the agent and its token.
    await panel.getByRole('button', { name: 'Remove Renamed' }).click();
    await panel.getByRole('button', { name: 'Yes, remove Renamed' }).click();
    await expect.poll(() => panel.getByRole('button', { name: /^Renamed:/ }).count(), T).toBe(0);
    const after = await stored(panel);
    expect(after.settings.agents).toEqual([]);
    expect(after[`token:${agentId}`]).toBeUndefined();
    await panel.close();
  });
});
