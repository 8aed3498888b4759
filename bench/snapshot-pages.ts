/**
 * The pages the snapshot benchmark reads, generated so every run measures the same DOM: a large
 * table, a long article, a long form, shadow-DOM cards with an iframe, and an issue list (the real
 * Redmine's markup, rows multiplied, when Redmine can be started; otherwise markup modelled on it).
 */

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

function words(seed: number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  return out.join(' ');
}

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

export function tablePage(rows = 5_000): string {
  const body: string[] = [
    '<h1>Inventory</h1><table><thead><tr><th>Id</th><th>Item</th><th>Open</th><th>Delete</th><th>Pick</th></tr></thead><tbody>',
  ];
  for (let i = 1; i <= rows; i++) {
    body.push(
      `<tr><td>${i}</td><td>Item ${words(i, 3)}</td><td><a href="/item/${i}">Open ${i}</a></td>` +
        `<td><button type="button">Delete</button></td><td><input type="checkbox" aria-label="Pick ${i}"></td></tr>`,
    );
  }
  body.push('</tbody></table>');
  return page('Inventory table', body.join(''));
}

export function articlePage(paragraphs = 1_500): string {
  const body: string[] = ['<article><h1>A long article</h1>'];
  for (let i = 1; i <= paragraphs; i++) {
    if (i % 50 === 1) body.push(`<h2>Section ${Math.ceil(i / 50)}</h2>`);
    const link = i % 10 === 0 ? ` see <a href="/ref/${i}">reference ${i}</a> and` : '';
    body.push(`<p>${words(i, 18)},${link} <em>${words(i + 1, 3)}</em> ${words(i + 2, 14)}.</p>`);
  }
  body.push('</article>');
  return page('Long article', body.join(''));
}

export function formPage(fields = 300): string {
  const body: string[] = ['<h1>Application form</h1><form>'];
  for (let i = 1; i <= fields; i++) {
    const kind = i % 6;
    if (kind === 0) body.push(`<label>Field ${i} <input type="checkbox" name="c${i}"></label>`);
    else if (kind === 1)
      body.push(
        `<label for="s${i}">Field ${i}</label><select id="s${i}"><option>One</option><option>Two</option><option>Three</option></select>`,
      );
    else if (kind === 2) body.push(`<label for="t${i}">Field ${i}</label><textarea id="t${i}"></textarea>`);
    else if (kind === 3)
      body.push(
        `<fieldset><legend>Field ${i}</legend><label><input type="radio" name="r${i}"> Yes</label><label><input type="radio" name="r${i}"> No</label></fieldset>`,
      );
    else
      body.push(
        `<div class="row"><label for="f${i}">Field ${i}</label><input id="f${i}" value="${i % 3 ? '' : 'filled'}"></div>`,
      );
  }
  body.push('<button type="submit">Submit</button></form>');
  return page('Long form', body.join(''));
}

export function shadowPage(cards = 200): string {
  const script = `
    customElements.define('bench-card', class extends HTMLElement {
      connectedCallback() {
        const n = this.getAttribute('n');
        this.attachShadow({ mode: 'open' }).innerHTML =
          '<div class="card"><h3><slot name="title"></slot></h3><p>Card ' + n + ' body text with a few words</p>' +
          '<a href="/card/' + n + '">Details</a> <button>Add ' + n + '</button></div>';
      }
    });`;
  const body: string[] = ['<h1>Cards</h1>'];
  for (let i = 1; i <= cards; i++)
    body.push(`<bench-card n="${i}"><span slot="title">Card title ${i}</span></bench-card>`);
  body.push('<iframe title="Embedded list" src="/frame.html" style="height:200px"></iframe>');
  return page('Shadow cards', body.join(''), `<script>${script}</script>`);
}

export function framePage(): string {
  const items = Array.from({ length: 30 }, (_, i) => `<li><a href="/f/${i}">Frame link ${i}</a></li>`).join('');
  return page('Frame', `<ul>${items}</ul><button>Frame button</button>`);
}

/**
 * Real Redmine issue-list HTML with its rows multiplied to `rows`; scripts dropped (they would talk
 * to a server that is gone), a <base> so its style sheets still load while Redmine runs.
 */
export function multiplyRedmineRows(html: string, base: string, rows = 400): string {
  const body = /(<tbody>)([\s\S]*?)(<\/tbody>)/.exec(html);
  if (!body) throw new Error('no issue table in the Redmine page');
  const originals = body[2]!.match(/<tr[\s\S]*?<\/tr>/g) ?? [];
  if (!originals.length) throw new Error('no issue rows in the Redmine page');
  const made: string[] = [];
  for (let i = 0; i < rows; i++) {
    const id = 1000 + i;
    made.push(
      originals[i % originals.length]!.replace(/issue-(\d+)/g, `issue-${id}`)
        .replace(/\/issues\/(\d+)/g, `/issues/${id}`)
        .replace(/value="(\d+)"/g, `value="${id}"`)
        .replace(/>#?(\d+)</, `>${id}<`),
    );
  }
  return html
    .replace(body[0], `${body[1]}${made.join('')}${body[3]}`)
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace('<head>', `<head><base href="${base}/">`);
}

/** Markup modelled on Redmine 5's issue list (used when no real Redmine can be started). */
export function redmineLikePage(rows = 400): string {
  const menu = [
    'Overview',
    'Activity',
    'Issues',
    'Spent time',
    'Gantt',
    'Calendar',
    'News',
    'Documents',
    'Wiki',
    'Files',
    'Settings',
  ]
    .map((item) => `<li><a href="/projects/demo/${item.toLowerCase()}" class="${item.toLowerCase()}">${item}</a></li>`)
    .join('');
  const trs: string[] = [];
  for (let i = 1; i <= rows; i++) {
    trs.push(
      `<tr id="issue-${i}" class="hascontextmenu ${i % 2 ? 'odd' : 'even'} issue tracker-1 status-1 priority-2"><td class="checkbox hide-when-print"><input type="checkbox" name="ids[]" value="${i}"></td>` +
        `<td class="id"><a href="/issues/${i}">${i}</a></td><td class="tracker">Bug</td><td class="status">New</td><td class="priority">Normal</td>` +
        `<td class="subject"><a href="/issues/${i}">${words(i, 5)}</a></td><td class="assigned_to"><a class="user active" href="/users/5">Alice Archer</a></td>` +
        `<td class="updated_on">2026-11-${String((i % 28) + 1).padStart(2, '0')} 10:2${i % 10}</td>` +
        `<td class="buttons"><a title="Actions" class="icon-only icon-actions js-contextmenu" href="#">Actions</a></td></tr>`,
    );
  }
  const body = `<div id="wrapper"><div id="top-menu"><ul><li><a class="home" href="/">Home</a></li><li><a class="my-page" href="/my/page">My page</a></li><li><a class="projects" href="/projects">Projects</a></li></ul><div id="account"><ul><li><a class="my-account" href="/my/account">My account</a></li><li><a class="logout" href="/logout">Sign out</a></li></ul></div></div>
  <div id="header"><div id="quick-search"><form action="/search" method="get"><label for="q"><a href="/search" accesskey="4">Search</a>:</label><input type="text" name="q" id="q" size="20" class="small" accesskey="f"></form></div><h1>Demo project</h1><div id="main-menu" class="tabs"><ul>${menu}</ul></div></div>
  <div id="main"><div id="sidebar"><h3>Issues</h3><ul><li><a href="/projects/demo/issues">View all issues</a></li><li><a href="/projects/demo/issues/report">Summary</a></li></ul></div>
  <div id="content"><h2>Issues</h2><form id="query_form" action="/projects/demo/issues" method="get"><fieldset id="filters" class="collapsible"><legend>Filters</legend><table id="filters-table"><tr class="filter"><td class="field"><input type="checkbox" id="cb_status_id" checked><label for="cb_status_id"> Status</label></td><td class="operator"><select id="operators_status_id"><option value="o">open</option><option value="=">is</option><option value="!">is not</option><option value="c">closed</option><option value="*">any</option></select></td></tr></table><div class="add-filter"><label for="add_filter_select">Add filter</label><select id="add_filter_select"><option>Tracker</option><option>Priority</option><option>Author</option><option>Assignee</option></select></div></fieldset>
  <p class="buttons"><a href="#" class="icon icon-checked">Apply</a><a href="/projects/demo/issues?set_filter=1" class="icon icon-reload">Clear</a></p></form>
  <form action="/issues/bulk_edit"><div class="autoscroll"><table class="list issues odd-even sort-by-id sort-desc"><thead><tr><th class="checkbox hide-when-print"><input type="checkbox" title="Check all/Uncheck all"></th><th title="Sort by &quot;#&quot;"><a href="?sort=id">#</a></th><th><a href="?sort=tracker">Tracker</a></th><th><a href="?sort=status">Status</a></th><th><a href="?sort=priority">Priority</a></th><th><a href="?sort=subject">Subject</a></th><th><a href="?sort=assigned_to">Assignee</a></th><th><a href="?sort=updated_on">Updated</a></th><th></th></tr></thead><tbody>${trs.join('')}</tbody></table></div></form>
  <span class="pagination"><ul class="pages"><li class="current"><span>1</span></li><li class="page"><a href="?page=2">2</a></li><li class="next page"><a href="?page=2">Next »</a></li></ul><span><span class="items">(1-${rows}/${rows})</span></span></span></div></div></div>`;
  return page('Issues - Demo project - Redmine', body);
}
