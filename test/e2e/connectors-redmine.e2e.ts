/**
 * The Redmine connector (and a recipe for the same list) against a real Redmine 5 on 127.0.0.1,
 * signed in through Redmine's own login form, driven by the demo agent through the real panel.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedmine, type RedmineApp } from '../apps';
import {
  ask,
  closeSettings,
  connectorStatus,
  openSettings,
  reconnectAgent,
  setUpConnector,
  signIn,
  startRig,
  structuredFrom,
  type ConnectorRig,
} from './connectors-helpers';
import { ROOT } from './harness';
import redmine from '../../src/connectors/builtin/redmine';

const RECIPE = readFileSync(join(ROOT, 'test/fixtures/connectors/redmine-my-issues.recipe.json'), 'utf8');

describe('Redmine connector on a real Redmine', () => {
  let app: RedmineApp;
  let rig: ConnectorRig;

  beforeAll(async () => {
    app = await startRedmine();
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await app?.stop();
  });

  const issueId = (subject: string) => app.issues.find((i) => i.subject === subject)!.id;
  /** The notes Redmine itself shows on the issue page, read in a tab of their own. */
  const notesInApp = async (id: number): Promise<string> => {
    const page = await rig.launched.context.newPage();
    await page.goto(`${app.url}/issues/${id}`);
    const text = (await page.locator('#history').count()) ? await page.locator('#history').innerText() : '';
    await page.close();
    return text;
  };

  let redminePage: Page;

  it('lists my issues and reads one, in the signed-in session', async () => {
    const { panel, launched } = rig;
    await setUpConnector(panel, 'Redmine', app.url);
    await panel.getByRole('textbox', { name: 'Recipe JSON' }).fill(RECIPE);
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await panel.getByRole('checkbox', { name: 'Enable My Redmine (recipe)' }).waitFor();
    await setUpConnector(panel, 'My Redmine (recipe)', app.url);
    await closeSettings(panel);
    await reconnectAgent(panel);
    redminePage = await signIn(
      launched,
      `${app.url}/login`,
      async (page) => {
        await page.locator('#username').fill('alice');
        await page.locator('#password').fill('secret-alice');
        await page.getByRole('button', { name: 'Login' }).click();
      },
      async (page) => (await page.locator('a.logout').count()) > 0,
    );

    const open = await ask(panel, 'issues');
    for (const issue of app.issues.filter((i) => i.assignee === 'alice' && i.status !== 'Closed')) {
      expect(open).toContain(`#${issue.id} [${issue.status}] ${issue.subject}`);
    }
    expect(open).not.toContain('Old login page still reachable');
    expect(open).not.toContain('Write the release checklist');
    expect(await ask(panel, 'issues closed')).toContain('Old login page still reachable');

    const id = issueId('Export to CSV drops accented names');
    const detail = await ask(panel, `issue ${id}`);
    expect(detail).toContain(`Bug #${id}: Export to CSV drops accented names`);
    expect(detail).toContain('Status: In Progress · Priority: High · Assignee: Alice Archer');
    expect(detail).toContain('Exporting the member list loses');
    expect(await ask(panel, 'issue 9999')).toContain('Issue #9999 does not exist');
    expect(await connectorStatus(panel, 'redmine')).toBe('Redmine: healthy');
    await closeSettings(panel);
  });

  it('adds a note only with act mode on and the user’s confirmation, and the note is in Redmine', async () => {
    const { panel } = rig;
    const id = issueId('Add a dark theme');
    const refused = await ask(panel, `note ${id} Refused while read-only`);
    expect(refused).toContain('act mode is off');
    expect(await notesInApp(id)).not.toContain('Refused while read-only');

    await openSettings(panel);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await closeSettings(panel);

    const denying = ask(panel, `note ${id} Denied by the user`);
    const card = panel.getByRole('alertdialog').filter({ hasText: 'redmine.add_note' });
    await card.waitFor({ timeout: 30_000 });
    // The note is among the call's arguments, one click away.
    await card.getByText('Arguments', { exact: true }).click();
    expect(await card.innerText()).toContain('Denied by the user');
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(await denying).toContain('the user denied this action');
    expect(await notesInApp(id)).not.toContain('Denied by the user');

    const allowing = ask(panel, `note ${id} Checked on Chromium 131: the theme follows the system.`);
    await panel
      .getByRole('alertdialog')
      .filter({ hasText: 'redmine.add_note' })
      .getByRole('button', { name: 'Allow once' })
      .click();
    expect(await allowing).toContain(`Added a note to issue #${id} as Alice Archer.`);
    const notes = await notesInApp(id);
    expect(notes).toContain('Checked on Chromium 131: the theme follows the system.');
    expect(notes).not.toContain('Denied by the user');

    const detail = await ask(panel, `issue ${id}`);
    expect(detail).toContain('Notes (1):');
    expect(detail).toContain('Alice Archer: Checked on Chromium 131');
  });

  it('a recipe for the same list returns the same rows as the code connector', async () => {
    const { panel } = rig;
    const code = structuredFrom(await ask(panel, 'call redmine.list_my_issues {"status":"all"}'));
    const recipe = structuredFrom(await ask(panel, 'call myredmine.list_my_issues {"status":"*"}'));
    expect((code.issues as unknown[]).length).toBe(4);
    // The real answer has exactly the shape the tool lists as its outputSchema.
    expect(redmine.tools.list_my_issues!.output!.safeParse(code).success).toBe(true);
    expect(recipe.issues).toEqual(code.issues);
  });

  it('explains what is wrong with a recipe, and keeps nothing from it', async () => {
    const { panel } = rig;
    await openSettings(panel);
    const box = panel.getByRole('textbox', { name: 'Recipe JSON' });
    const problems = panel.getByRole('alert', { name: 'Recipe problems' });
    await box.fill('{ "format": ');
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await expect.poll(() => problems.innerText()).toContain('Not valid JSON');

    await box.fill(
      JSON.stringify({
        format: 'tabwright-recipe/1',
        id: 'Bad Id',
        name: 'Broken',
        version: '1',
        matches: ['not a pattern'],
        tools: { list: { description: 'x', steps: [{ step: 'navigate', path: 'x/{missing}' }, { step: 'hover' }] } },
      }),
    );
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await expect.poll(() => problems.innerText()).toContain('id: an id of 2–32 lowercase letters');
    const text = await problems.innerText();
    expect(text).toContain('version: a version like 1.0.0');
    expect(text).toContain('matches[0]: a URL match pattern');
    expect(text).toContain('tools.list.steps[1].step');

    await box.fill(RECIPE.replace('"id": "myredmine"', '"id": "redmine"'));
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await expect.poll(() => problems.innerText()).toContain('is the id of a built-in connector');
    expect(await panel.getByRole('checkbox', { name: /^Enable Broken/ }).count()).toBe(0);
    await closeSettings(panel);
  });

  it('tells the agent to ask for a sign-in once Redmine signed the user out', async () => {
    const { panel } = rig;
    await redminePage.bringToFront();
    await redminePage.locator('a.logout').click();
    await redminePage.locator('a.login').waitFor();

    const reply = await ask(panel, 'issues');
    expect(reply).toContain(`Ask the user to sign in to Redmine at ${app.url}/login`);
    await panel.getByRole('alertdialog', { name: 'Sign in to Redmine' }).waitFor();
    expect(await connectorStatus(panel, 'redmine')).toMatch(/^Redmine: signed out/);
    await closeSettings(panel);
  });
});
