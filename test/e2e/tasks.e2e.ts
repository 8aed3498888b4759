/**
 * The task suite through Tabwright: every task's plan carried out with tools called over the real
 * tunnel by the rule an agent follows (a snapshot first, then only targets it has read, looked up
 * with find when it has not), on pages built from real component libraries, and the page's state
 * checked afterwards through the library's own API. A dialog that reaches the browser instead of being answered by the
 * action that opened it fails its task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import { taskPageRoutes } from './tasks-pages';
import { runTask, type Capability } from './tasks-plan';
import { selectedTasks, TASKS } from './tasks-suite';
import { tabwrightAdapter } from './tasks-tabwright';

describe('task suite', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig({ routes: await taskPageRoutes() });
  });
  afterAll(async () => rig?.close());

  it('covers each capability in at least two tasks on different libraries', () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(30);
    const libraries = new Set(TASKS.map((task) => task.library).filter((library) => library !== 'native'));
    expect(libraries.size).toBeGreaterThanOrEqual(8);
    expect(new Set(TASKS.map((task) => task.id)).size).toBe(TASKS.length);
    const capabilities: Capability[] = [
      'dialog',
      'upload',
      'drag',
      'native input',
      'shadow DOM',
      'clickable by script',
      'hover',
    ];
    for (const capability of capabilities) {
      const on = new Set(TASKS.filter((task) => task.needs.includes(capability)).map((task) => task.library));
      expect(on.size, capability).toBeGreaterThanOrEqual(2);
    }
  });

  it('answers an action that starts a fade with what the fade leads to (Bootstrap’s modal)', async () => {
    const page = await rig.open('/tasks/bootstrap.html');
    await page.waitForFunction('window.project');
    const snapshot = textOf(await rig.call('snapshot'));
    // Bootstrap shows the modal only once its backdrop has faded in, with no DOM change meanwhile.
    const opened = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Delete project"/) }));
    expect(opened).toMatch(/dialog "Delete project\?"/);
    const remove = refIn(opened, /button "Delete"/);
    // Hidden only once it has faded out: the answer says the dialog went.
    const closed = textOf(await rig.call('click', { ref: remove }));
    expect(closed).toMatch(/^- - dialog "Delete project\?"/m);
    expect(await page.evaluate('[project.deleted, project.modal._isShown]')).toEqual([true, false]);
  });

  it('tells a sort by the sorted column’s mark and a page turn by the current page’s (Tabulator, DataTables)', async () => {
    const grid = await rig.open('/tasks/tabulator.html');
    await grid.waitForFunction('window.grid');
    const rows = textOf(await rig.call('snapshot'));
    expect(rows).not.toMatch(/\[sort=/);
    const sorted = textOf(await rig.call('click', { ref: refIn(rows, /columnheader "Quantity"/) }));
    expect(sorted).toMatch(/columnheader "Quantity" \[e\d+\] \[sort=ascending\]/);
    expect(await grid.evaluate('grid.getSorters().map((sorter) => sorter.dir)')).toEqual(['asc']);

    const staff = await rig.open('/tasks/datatables.html');
    await staff.waitForFunction('window.staff');
    const first = textOf(await rig.call('snapshot'));
    // DataTables sorts by its first column from the start, and marks the page it shows.
    expect(first).toMatch(/columnheader \[sort=ascending\]\n\s+- "Name"/);
    expect(first).toMatch(/link "1" \[e\d+\] \[current=page\]/);
    const next = textOf(await rig.call('click', { ref: refIn(first, /link "Next"/) }));
    expect(next).toMatch(/^~ - link "1" \[e\d+\] \(was: \[current=page\]\)$/m);
    expect(next).toMatch(/^~ - link "2" \[e\d+\] \[current=page\] \(was: no \[current\]\)$/m);
  });

  it('prints Ionic’s toggle as one switch, which says when it is checked', async () => {
    const page = await rig.open('/tasks/ionic.html');
    await page.waitForFunction(`customElements.get('ion-toggle') && window.tasks`);
    const snapshot = textOf(await rig.call('snapshot'));
    // The component is the switch; the input it hides behind its label is not a second one.
    expect(snapshot.match(/switch "Notify the customer"/g)).toHaveLength(1);
    const toggled = textOf(await rig.call('click', { ref: refIn(snapshot, /switch "Notify the customer"/) }));
    expect(toggled).toMatch(/^~ - switch "Notify the customer" \[e\d+\] \[checked\] \(was: no \[checked\]\)$/m);
    expect(await page.evaluate(`document.getElementById('notify').checked`)).toBe(true);
  });

  for (const task of selectedTasks()) {
    it(`${task.id} (${task.library})`, async () => {
      const run = await runTask(task, tabwrightAdapter(rig), rig.fixtures.allowed);
      expect(run.failure, JSON.stringify(run)).toBeUndefined();
      expect(run.state).toEqual(task.expected);
      expect(run.completed).toBe(true);
      // Only a target nothing marks as one to act on may show no ref where the agent read it.
      expect(run.withoutRef).toEqual([]);
    });
  }
});
