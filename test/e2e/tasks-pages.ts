/**
 * The task suite's pages (test/fixtures/tasks/): each library page's script is bundled from the
 * installed npm package with vite's `build`, with the library's own stylesheet beside it, and
 * served under /tasks/build/<page>/. Native controls need no bundle.
 */
import { extname, join } from 'node:path';
import type { Route } from './fixture-server';
import { serveShoelaceAssets } from './actions-rig';
import { bundlePage } from './page-bundle';

/** Page name → its entry under test/fixtures/tasks/. */
const BUNDLES: Record<string, string> = {
  material: 'material.ts',
  shoelace: 'shoelace.ts',
  flatpickr: 'flatpickr.ts',
  'tom-select': 'tom-select.ts',
  quill: 'quill.ts',
  ace: 'ace.ts',
  sortable: 'sortable.ts',
  filepond: 'filepond.ts',
  react: 'react-app.tsx',
  tabulator: 'tabulator.ts',
  fomantic: 'fomantic.ts',
  tippy: 'tippy.ts',
  monaco: 'monaco.ts',
  datatables: 'datatables.ts',
  'ag-grid': 'ag-grid.ts',
  bootstrap: 'bootstrap.ts',
  'jquery-ui': 'jquery-ui.ts',
  ionic: 'ionic.ts',
  carbon: 'carbon.ts',
  fullcalendar: 'fullcalendar.ts',
  pangea: 'pangea-board.tsx',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Builds every bundle (in parallel) and answers with the routes that serve them. */
export async function taskPageRoutes(): Promise<Route[]> {
  const names = Object.keys(BUNDLES);
  const built = await Promise.all(names.map((name) => bundlePage(join('test/fixtures/tasks', BUNDLES[name]!), name)));
  const byName = new Map(names.map((name, i) => [name, built[i]!]));
  const serveBuilt: Route = async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
    const match = /^\/tasks\/build\/([^/]+)\/([^/]+)$/.exec(path);
    if (!match) return false;
    const body = byName.get(match[1]!)?.get(match[2]!);
    const type = TYPES[extname(match[2]!)];
    if (!body || !type) return (response.writeHead(404).end(), true);
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
    return true;
  };
  return [serveBuilt, serveShoelaceAssets()];
}
