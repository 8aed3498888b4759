/**
 * Downloads through the real panel: "Report downloads" off, then on in Settings; a click on an
 * allowed page that downloads a file says so in its result and the `downloads` tool lists it;
 * downloads started from a site Tabwright has not allowed (localhost, one port away from the
 * allowed 127.0.0.1), served from there, or redirected to a path the user blocklisted are never
 * shown, though Chrome did download them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import { waitFor } from './harness';

const FILE_BODY = 'id,amount\n1,20\n2,22\n';
const FILE_BYTES = Buffer.byteLength(FILE_BODY);

function page(request: IncomingMessage): string {
  const port = (request.headers.host ?? '').split(':')[1] ?? '';
  return `<!doctype html><title>Downloads</title>
<h1>Reports</h1>
<p><a id="report" href="/downloads/files/report.csv">Download report</a></p>
<p><a id="private" href="/downloads/to-private">Download statement</a></p>
<p><a id="elsewhere" href="http://localhost:${port}/downloads/files/other.csv">Download from elsewhere</a></p>
<p><a id="early" href="/downloads/files/early.csv">Download early</a></p>
<p><a id="mine" href="http://127.0.0.1:${port}/downloads/files/mine.csv">Download mine</a></p>`;
}

function downloadRoutes(request: IncomingMessage, response: ServerResponse): boolean {
  const path = new URL(request.url ?? '/', 'http://fixture').pathname;
  if (path === '/downloads/page.html') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(page(request));
    return true;
  }
  if (path === '/downloads/to-private') {
    response.writeHead(302, { location: '/private/statement.csv' }).end();
    return true;
  }
  const file = /^\/(?:downloads\/files|private)\/([\w-]+\.csv)$/.exec(path)?.[1];
  if (!file) return false;
  response.writeHead(200, {
    'content-type': 'text/csv',
    'content-length': String(FILE_BYTES),
    'content-disposition': `attachment; filename="${file}"`,
    'cache-control': 'no-store',
  });
  response.end(FILE_BODY);
  return true;
}

/** What Chrome itself has downloaded, asked from the extension's worker (file names only). */
async function chromeDownloaded(rig: ActionRig): Promise<string[]> {
  return rig.launched.worker.evaluate(async () => {
    const items = await chrome.downloads.search({});
    return items.map((item) => item.filename.split(/[\\/]/).pop() ?? '');
  });
}

async function waitDownloaded(rig: ActionRig, name: string): Promise<void> {
  await waitFor(async () => (await chromeDownloaded(rig)).includes(name), 15_000).catch(async (error) => {
    const all = await rig.launched.worker.evaluate(() => chrome.downloads.search({}));
    throw new Error(`${name} was not downloaded: ${JSON.stringify(all)}`, { cause: error });
  });
}

async function setReportDownloads(rig: ActionRig, on: boolean): Promise<void> {
  const { panel } = rig;
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  const toggle = panel.getByRole('switch', { name: 'Report downloads' });
  if (on) await toggle.check();
  else await toggle.uncheck();
  await expect.poll(() => toggle.isChecked()).toBe(on);
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
}

describe('downloads', () => {
  let rig: ActionRig;
  let tab: Page;
  let snapshot: string;
  const folder = mkdtempSync(join(tmpdir(), 'tabwright-downloads-'));

  beforeAll(async () => {
    // Files go to a folder of this test's own, under their own names, without a prompt.
    mkdirSync(join(folder, 'profile', 'Default'), { recursive: true });
    const preferences = { download: { default_directory: join(folder, 'files'), prompt_for_download: false } };
    writeFileSync(join(folder, 'profile', 'Default', 'Preferences'), JSON.stringify(preferences));
    rig = await startActionRig({ routes: [downloadRoutes], profile: join(folder, 'profile') });
    // Playwright names downloads by GUID; Chrome's own behaviour (that folder, the server's names) is the user's.
    const cdp = await rig.launched.context.browser()!.newBrowserCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });
    await cdp.detach();
    // The user's own rule: nothing under /private on the fixture host.
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    await rig.panel.getByRole('textbox', { name: 'Site to block' }).fill('127.0.0.1/private');
    await rig.panel.getByRole('button', { name: 'Block site' }).click();
    await rig.panel.getByRole('list', { name: 'Added by you' }).getByText('127.0.0.1/private').waitFor();
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    tab = await rig.open('/downloads/page.html');
    snapshot = textOf(await rig.call('snapshot'));
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('with reporting off, says so and shows nothing, and nothing from before it was turned on appears later', async () => {
    const off = await rig.call('downloads');
    expect(off.isError).toBe(true);
    expect(textOf(off)).toMatch(/has not turned on "Report downloads"/);
    const click = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Download early"/) }));
    expect(click).not.toMatch(/started a download/);
    await waitDownloaded(rig, 'early.csv');

    await setReportDownloads(rig, true);
    const listed = await rig.call('downloads');
    expect(listed.isError).toBeFalsy();
    expect(textOf(listed)).not.toContain('early.csv');
    expect(listed.structuredContent).toEqual({ downloads: [] });
  });

  it('reports a download started by a click on an allowed site, and lists it', async () => {
    await tab.bringToFront();
    const click = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Download report"/) }));
    expect(click).toMatch(/This action started a download:/);
    expect(click).toMatch(
      new RegExp(
        `"report\\.csv" — \\d+ B[^,]*, (complete|in progress), from ${rig.fixtures.allowed.replace(/[.:/]/g, '\\$&')}`,
      ),
    );
    await waitDownloaded(rig, 'report.csv');
    const listed = await rig.call('downloads');
    const text = textOf(listed);
    expect(text).toMatch(new RegExp(`"report\\.csv" — ${FILE_BYTES} B, complete, from http://127\\.0\\.0\\.1:\\d+`));
    expect(listed.structuredContent).toMatchObject({
      downloads: [{ fileName: 'report.csv', bytes: FILE_BYTES, state: 'complete', origin: rig.fixtures.allowed }],
    });
    // The folder it went to is the user's business.
    expect(text).not.toContain(folder);
  });

  it('never shows a download redirected to a blocklisted path, served from a site not allowed, or started there', async () => {
    await tab.bringToFront();
    const toPrivate = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Download statement"/) }));
    expect(toPrivate).not.toMatch(/started a download/);
    const elsewhere = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Download from elsewhere"/) }));
    expect(elsewhere).not.toMatch(/started a download/);
    // The user, on a site Tabwright was not allowed, downloads a file of their own (served by the allowed one).
    const other = await rig.launched.context.newPage();
    await other.goto(`${rig.fixtures.other}/downloads/page.html`);
    await other.click('#mine');
    for (const name of ['statement.csv', 'other.csv', 'mine.csv']) await waitDownloaded(rig, name);
    await other.close();

    const listed = await rig.call('downloads', { limit: 50 });
    const text = textOf(listed);
    expect(text).toContain('report.csv');
    for (const hidden of ['statement.csv', 'other.csv', 'mine.csv', 'early.csv', 'localhost']) {
      expect(text).not.toContain(hidden);
      expect(JSON.stringify(listed.structuredContent)).not.toContain(hidden);
    }
    expect((listed.structuredContent as { downloads: unknown[] }).downloads).toHaveLength(1);
  });

  it('turned off again, lists nothing and says why', async () => {
    await setReportDownloads(rig, false);
    const off = await rig.call('downloads');
    expect(off.isError).toBe(true);
    expect(textOf(off)).toMatch(/has not turned on "Report downloads"/);
    expect(textOf(off)).not.toContain('report.csv');
    await tab.bringToFront();
    const click = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Download report"/) }));
    expect(click).not.toMatch(/started a download/);
  });
});
