/**
 * The MantisBT connector against a real MantisBT served under /mantis/ on 127.0.0.1, signed in
 * through MantisBT's own two-step login form, driven by the demo agent through the real panel.
 * What MantisBT holds before and after is read through its own pages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANTISBT_SEED, startMantisBT, type MantisApp } from '../apps';
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

const RECIPE = readFileSync(join(ROOT, 'test/fixtures/connectors/mantisbt-add-note.recipe.json'), 'utf8');
const RECIPE_NAME = 'MantisBT notes (recipe)';

interface Listed {
  issues: Array<{ id: number; summary: string; status: string; project: string; category: string }>;
}

describe('MantisBT connector on a real MantisBT under a sub-path', () => {
  let app: MantisApp;
  let rig: ConnectorRig;
  let mantisPage: Page;
  const timings: Record<string, number[]> = {};

  beforeAll(async () => {
    const started = performance.now();
    app = await startMantisBT({ subPath: true });
    console.log(`[mantisbt] setup ${((performance.now() - started) / 1000).toFixed(1)} s`);
    rig = await startRig();
  });
  afterAll(async () => {
    const lines = Object.entries(timings).map(
      ([tool, ms]) => `${tool}: ${ms.map((m) => (m / 1000).toFixed(2)).join(', ')} s`,
    );
    console.log(`[mantisbt] tool timings (agent round trip)\n${lines.join('\n')}`);
    await rig?.close();
    await app?.stop();
  });

  /** Calls a tool through the demo agent, timing the round trip. */
  /** `recipe:<tool>` calls the imported recipe's tool instead of the built-in one. */
  const call = async (tool: string, args: Record<string, unknown>): Promise<string> => {
    const started = performance.now();
    const name = tool.startsWith('recipe:') ? `mantisnotes.${tool.slice(7)}` : `mantisbt.${tool}`;
    const reply = await ask(rig.panel, `call ${name} ${JSON.stringify(args)}`, 90_000);
    (timings[tool] ??= []).push(performance.now() - started);
    return reply;
  };
  const allowNext = async (tool: string, reply: Promise<string>): Promise<string> => {
    const name = tool.startsWith('recipe:') ? `mantisnotes.${tool.slice(7)}` : `mantisbt.${tool}`;
    await rig.panel
      .getByRole('alertdialog')
      .filter({ hasText: name })
      .getByRole('button', { name: 'Allow once' })
      .click({ timeout: 30_000 });
    return reply;
  };
  const id = (summary: string) => app.issues.find((i) => i.summary === summary)!.id;
  const ids = (listed: Listed) => listed.issues.map((i) => i.id);

  /** What MantisBT shows alice as her current project and her saved filter's issues, in a tab of its own. */
  const alicesView = async (): Promise<{ project: string; listed: number[] }> => {
    const page = await rig.launched.context.newPage();
    await page.goto(`${app.site}view_all_bug_page.php`);
    const project = (await page.locator('#dropdown_projects_menu > a.dropdown-toggle').innerText()).trim();
    const listed = (await page.locator('#buglist tbody td.column-id').allInnerTexts()).map(Number);
    await page.close();
    return { project, listed };
  };
  /** The notes MantisBT shows on an issue, read by the administrator (who sees private notes too). */
  const notesInApp = async (issue: number): Promise<string[]> => {
    const admin = await app.visitor('administrator');
    const page = await admin.get(`view.php?id=${issue}`);
    return Array.from(page.document.querySelectorAll('#bugnotes td.bugnote-note')).map((td) =>
      (td.textContent ?? '').trim(),
    );
  };
  const issueCount = async (): Promise<number> => {
    const admin = await app.visitor('administrator');
    const page = await admin.get('search.php?project_id=0&hide_status=-2&per_page=100');
    return page.document.querySelectorAll('#buglist tbody td.column-id').length;
  };

  it('reads exactly the seeded issues, and leaves the current project and saved filter as they were', async () => {
    const { panel, launched } = rig;
    await setUpConnector(panel, 'MantisBT', app.url, app.site);
    await panel.getByRole('textbox', { name: 'Recipe JSON' }).fill(RECIPE);
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await panel.getByRole('checkbox', { name: `Enable ${RECIPE_NAME}` }).waitFor();
    await setUpConnector(panel, RECIPE_NAME, app.url, app.site);
    await closeSettings(panel);
    await reconnectAgent(panel);
    mantisPage = await signIn(
      launched,
      `${app.site}login_page.php`,
      async (page) => {
        await page.locator('#username').fill('alice');
        await page.getByRole('button', { name: 'Login' }).click();
        await page.locator('#password').fill('secret-alice');
        await page.getByRole('button', { name: 'Login' }).click();
      },
      async (page) => (await page.locator('a[href*="logout_page.php"]').count()) > 0,
    );
    // Alice works in Website with a saved filter of crash issues, chosen through MantisBT's own pages.
    await mantisPage.goto(`${app.site}set_project.php?project_id=${app.projects.Website}`);
    await mantisPage.goto(`${app.site}view_all_set.php?type=1&severity[]=70`);
    const before = await alicesView();
    expect(before).toEqual({ project: 'Website', listed: [id('Password reset mail never arrives')] });

    const open = structuredFrom(await call('list_my_issues', { status: 'open' })) as unknown as Listed;
    expect(ids(open)).toEqual([id('Password reset mail never arrives'), id('Checkout button hidden on small screens')]);
    expect(open.issues[1]).toMatchObject({
      summary: 'Checkout button hidden on small screens',
      status: 'assigned',
      project: 'Website',
      category: 'Frontend',
      priority: 'high',
      severity: 'major',
      assignee: 'Alice Archer',
    });
    const resolved = structuredFrom(await call('list_my_issues', { status: 'resolved' })) as unknown as Listed;
    expect(resolved.issues.map((i) => [i.id, i.status])).toEqual([
      [id('App crashes when rotating the camera view'), 'closed'],
      [id('Old logo still in the footer'), 'resolved'],
    ]);
    const all = structuredFrom(await call('list_my_issues', { status: 'all', limit: 3 })) as unknown as Listed;
    expect(ids(all)).toEqual([4, 3, 2].map((n) => app.issues[n - 1]!.id));

    const reported = structuredFrom(await call('list_reported_by_me', { status: 'all' })) as unknown as Listed;
    expect(reported.issues.map((i) => i.summary)).toEqual([
      'Search ignores accented letters',
      'Settings screen ignores dark mode',
    ]);

    const footer = structuredFrom(await call('search_issues', { text: 'footer' })) as unknown as Listed;
    expect(ids(footer)).toEqual([id('Old logo still in the footer'), id('Checkout button hidden on small screens')]);
    const inMobile = structuredFrom(
      await call('search_issues', { text: 'screen', project: 'Mobile App' }),
    ) as unknown as Listed;
    expect(ids(inMobile)).toEqual([id('Settings screen ignores dark mode')]);
    expect(await call('search_issues', { text: 'x', project: 'Intranet' })).toContain(
      'MantisBT has no project "Intranet" that you can see. Projects: Mobile App, Website.',
    );

    const checkout = id('Checkout button hidden on small screens');
    const seeded = MANTISBT_SEED.issues[0];
    const detail = structuredFrom(await call('get_issue', { id: checkout }));
    expect(detail.issue).toMatchObject({
      id: checkout,
      summary: seeded.summary,
      description: seeded.description,
      project: 'Website',
      category: 'Frontend',
      status: 'assigned',
      priority: 'high',
      severity: 'major',
      reporter: 'administrator',
      assignee: 'Alice Archer',
      attachments: ['layout-notes.txt'],
    });
    expect((detail.issue as { submitted: string }).submitted).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect((detail.notes as Array<Record<string, unknown>>).map((n) => [n.author, n.private, n.text])).toEqual([
      ['Bob Baker', false, 'Seen on a 360 px wide phone in portrait.'],
      ['Alice Archer', true, 'Reproduced; the sticky footer overlaps it.'],
    ]);
    expect((detail.notes as Array<{ time: string }>)[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(detail.relationships).toEqual([
      {
        type: 'related to',
        id: id('Old logo still in the footer'),
        status: 'resolved',
        assignee: 'Alice Archer',
        summary: 'Old logo still in the footer',
      },
    ]);
    expect(await call('get_issue', { id: 9999 })).toContain('Issue 9999 does not exist or you cannot see it');

    expect(await alicesView()).toEqual(before);
    expect(await connectorStatus(panel, 'mantisbt')).toBe('MantisBT: healthy');
    await closeSettings(panel);
  });

  it('adds a note and reports an issue only with act mode on and the user’s confirmation', async () => {
    const { panel } = rig;
    const issue = id('Password reset mail never arrives');
    expect(await call('add_note', { id: issue, text: 'Refused while read-only' })).toContain('act mode is off');
    const countBefore = await issueCount();
    expect(
      await call('report_issue', { project: 'Website', category: 'Backend', summary: 'Read-only', description: 'x' }),
    ).toContain('act mode is off');

    await openSettings(panel);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await closeSettings(panel);

    const denying = call('add_note', { id: issue, text: 'Denied by the user' });
    const card = panel.getByRole('alertdialog').filter({ hasText: 'mantisbt.add_note' });
    await card.waitFor({ timeout: 30_000 });
    // The note is among the call's arguments, one click away.
    await card.getByText('Arguments', { exact: true }).click();
    expect(await card.innerText()).toContain('Denied by the user');
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(await denying).toContain('the user denied this action');
    const deniedReport = call('report_issue', {
      project: 'Website',
      category: 'Backend',
      summary: 'Denied report',
      description: 'x',
    });
    await panel
      .getByRole('alertdialog')
      .filter({ hasText: 'mantisbt.report_issue' })
      .getByRole('button', { name: 'Deny' })
      .click({ timeout: 30_000 });
    expect(await deniedReport).toContain('the user denied this action');
    expect(await notesInApp(issue)).toEqual(['Checked the spam folder too.']);
    expect(await issueCount()).toBe(countBefore);

    const added = await allowNext('add_note', call('add_note', { id: issue, text: 'The mail server queue was full.' }));
    expect(added).toMatch(new RegExp(`Added a public note ~\\d+ to issue #${issue} as Alice Archer`));
    const privately = await allowNext(
      'add_note',
      call('add_note', { id: issue, text: 'Queue limit raised on the relay.', private: true }),
    );
    expect(privately).toContain('Added a private note');
    expect(await notesInApp(issue)).toEqual([
      'Checked the spam folder too.',
      'The mail server queue was full.',
      'Queue limit raised on the relay.',
    ]);

    // The recipe form of add_note, run by the recipe interpreter: the same gates, the same result.
    const byRecipe = call('recipe:add_note', { id: issue, text: 'Denied recipe note' });
    await panel
      .getByRole('alertdialog')
      .filter({ hasText: 'mantisnotes.add_note' })
      .getByRole('button', { name: 'Deny' })
      .click({ timeout: 30_000 });
    expect(await byRecipe).toContain('the user denied this action');
    const recipeNote = structuredFrom(
      await allowNext(
        'recipe:add_note',
        call('recipe:add_note', { id: issue, text: 'Relay restarted by the recipe.' }),
      ),
    );
    expect((recipeNote.notes as Array<Record<string, unknown>>).at(-1)).toEqual({
      author: 'Alice Archer',
      private: false,
      text: 'Relay restarted by the recipe.',
    });
    expect(await notesInApp(issue)).toEqual([
      'Checked the spam folder too.',
      'The mail server queue was full.',
      'Queue limit raised on the relay.',
      'Relay restarted by the recipe.',
    ]);

    const reported = structuredFrom(
      await allowNext(
        'report_issue',
        call('report_issue', {
          project: 'Mobile App',
          category: 'Android',
          summary: 'Notifications arrive twice',
          description: 'Every push notification is shown two times.',
          severity: 'major',
        }),
      ),
    );
    const newId = reported.id as number;
    expect(newId).toBe(app.issues.length + 1);
    const admin = await app.visitor('administrator');
    const shown = await admin.get(`view.php?id=${newId}`);
    expect(shown.document.querySelector('td.bug-summary')?.textContent).toContain('Notifications arrive twice');
    expect(shown.document.querySelector('td.bug-project')?.textContent?.trim()).toBe('Mobile App');
    expect(shown.document.querySelector('td.bug-reporter')?.textContent?.trim()).toBe('Alice Archer');
    expect(shown.document.querySelector('td.bug-severity')?.textContent?.trim()).toBe('major');
    expect(await issueCount()).toBe(countBefore + 1);
    // Reporting switched MantisBT's project for the form; the user's own choice is back.
    expect((await alicesView()).project).toBe('Website');
  });

  it('explains failures and leaves nothing half-done', async () => {
    const issue = id('Search ignores accented letters');
    const countBefore = await issueCount();

    const badCategory = await allowNext(
      'report_issue',
      call('report_issue', { project: 'Website', category: 'Database', summary: 'Nope', description: 'x' }),
    );
    expect(badCategory).toContain(
      'MantisBT has no category in Website "Database" here. Valid: Backend, Frontend, [All Projects] General.',
    );
    const badProject = await allowNext(
      'report_issue',
      call('report_issue', { project: 'Intranet', category: 'General', summary: 'Nope', description: 'x' }),
    );
    expect(badProject).toContain('Projects: Mobile App, Website.');
    expect(await issueCount()).toBe(countBefore);
    expect((await alicesView()).project).toBe('Website');

    // MantisBT makes resolved issues read-only: no note form, so nothing is sent.
    const resolved = id('Old logo still in the footer');
    expect(await allowNext('add_note', call('add_note', { id: resolved, text: 'On a read-only issue' }))).toContain(
      `MantisBT shows no note form on issue ${resolved}`,
    );
    expect(
      await allowNext('recipe:add_note', call('recipe:add_note', { id: resolved, text: 'On a read-only issue' })),
    ).toContain(`MantisBT shows no note form on this issue (${RECIPE_NAME} does not show it).`);
    expect(await notesInApp(resolved)).toEqual([]);

    // An expired form token: MantisBT refuses the first submission, the form is read again once.
    app.arm('stale-token');
    const retried = await allowNext('add_note', call('add_note', { id: issue, text: 'Sent after a fresh form.' }));
    expect(retried).toContain(`to issue #${issue} as Alice Archer`);
    expect(await notesInApp(issue)).toEqual(['Sent after a fresh form.']);

    // MantisBT takes longer than the connector waits: the agent is told it may have happened.
    app.arm('slow-submit');
    const slow = await allowNext('add_note', call('add_note', { id: issue, text: 'Sent to a slow server.' }));
    expect(slow).toContain('MantisBT did not answer within 15 s after the form was sent.');
    expect(slow).toContain(`The note may have been added — read issue ${issue} (get_issue) before trying again.`);
    await expect.poll(() => notesInApp(issue), { timeout: 30_000 }).toContain('Sent to a slow server.');
    expect(await notesInApp(issue)).toEqual(['Sent after a fresh form.', 'Sent to a slow server.']);
  }, 120_000);

  it('tells the agent to ask for a sign-in once MantisBT signed the user out', async () => {
    const { panel } = rig;
    await mantisPage.bringToFront();
    await mantisPage.goto(`${app.site}logout_page.php`);
    await mantisPage.locator('#login-form').waitFor();

    const reply = await call('list_my_issues', {});
    expect(reply).toContain(`Ask the user to sign in to MantisBT at ${app.site}login_page.php`);
    await panel.getByRole('alertdialog', { name: 'Sign in to MantisBT' }).waitFor();
    expect(await connectorStatus(panel, 'mantisbt')).toMatch(/^MantisBT: signed out/);
    await closeSettings(panel);
  });
});

describe('MantisBT connector on a real MantisBT at the root of its site', () => {
  let app: MantisApp;
  let rig: ConnectorRig;

  beforeAll(async () => {
    app = await startMantisBT();
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await app?.stop();
  });

  it('reads issues and adds a note there too', async () => {
    const { panel, launched } = rig;
    expect(app.site).toBe(`${app.url}/`);
    await setUpConnector(panel, 'MantisBT', app.url);
    await openSettings(panel);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await closeSettings(panel);
    await reconnectAgent(panel);
    await signIn(
      launched,
      `${app.url}/login_page.php`,
      async (page) => {
        await page.locator('#username').fill('alice');
        await page.getByRole('button', { name: 'Login' }).click();
        await page.locator('#password').fill('secret-alice');
        await page.getByRole('button', { name: 'Login' }).click();
      },
      async (page) => (await page.locator('a[href*="logout_page.php"]').count()) > 0,
    );
    const checkout = app.issues.find((i) => i.summary === 'Checkout button hidden on small screens')!.id;
    const open = structuredFrom(
      await ask(panel, 'call mantisbt.list_my_issues {"status":"open"}'),
    ) as unknown as Listed;
    expect(open.issues.map((i) => i.summary)).toEqual([
      'Password reset mail never arrives',
      'Checkout button hidden on small screens',
    ]);
    const detail = await ask(panel, `call mantisbt.get_issue {"id":${checkout}}`);
    expect(detail).toContain('Bob Baker at ');
    const adding = ask(panel, `call mantisbt.add_note {"id":${checkout},"text":"Fixed by moving the footer."}`);
    await panel
      .getByRole('alertdialog')
      .filter({ hasText: 'mantisbt.add_note' })
      .getByRole('button', { name: 'Allow once' })
      .click({ timeout: 30_000 });
    expect(await adding).toContain(`to issue #${checkout} as Alice Archer`);
    const admin = await app.visitor('administrator');
    const page = await admin.get(`view.php?id=${checkout}`);
    expect(page.document.querySelector('#bugnotes')?.textContent).toContain('Fixed by moving the footer.');
  });
});
