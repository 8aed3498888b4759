// @vitest-environment jsdom
/**
 * Which elements without an interactive role still get a ref: composite-widget items, a cursor of
 * their own, inline handlers, named focusable wrappers and elements with listeners of their own —
 * and which never do: a container whose items are what is acted on, body, a delegating root.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { RefRegistry } from './refs';
import { walkSnapshot } from './snapshot';

const LISTENED = 'data-listens';

function snap(html: string, listened = false): string[] {
  document.body.innerHTML = html;
  // The main-world record, stood in for by an attribute in the test's own markup.
  const ownListeners = listened ? (element: Element) => element.hasAttribute(LISTENED) : undefined;
  return walkSnapshot(document.body, {
    refs: new RefRegistry(''),
    pseudoElements: false,
    ...(ownListeners ? { ownListeners } : {}),
  }).lines;
}

describe('refs for everything a person can act on', () => {
  beforeEach(() => document.body.replaceChildren());

  it("gives a grid's cells refs at any tabindex, and its rows none when their cells have them", () => {
    expect(
      snap(`<div role="grid" aria-label="Orders"><div role="row">
        <div role="gridcell" tabindex="-1">PO-1003</div><div role="gridcell" tabindex="-1">1760</div>
      </div></div>`),
    ).toEqual(['- grid "Orders"', '  - row', '    - gridcell "PO-1003" [e1]', '    - gridcell "1760" [e2]']);
  });

  it("gives a grid's header row no ref of its own, and a row of items one", () => {
    expect(
      snap(`<table role="grid"><thead><tr role="row"><th role="columnheader">Sun</th><th role="columnheader">Mon</th></tr></thead>
        <tbody><tr role="row"><td><div>1</div><div>Retro</div></td><td></td></tr>
        <tr role="row"><th scope="row">Week 2</th></tr></tbody></table>`),
    ).toEqual([
      '- grid',
      '  - row',
      '    - columnheader "Sun"',
      '    - columnheader "Mon"',
      '  - row [e1]',
      '    - cell "1 Retro"',
      '  - row [e2]',
      '    - columnheader "Week 2"',
    ]);
  });

  it('gives a label that names its control by aria-labelledby no line of its own, however it listens', () => {
    expect(
      snap(
        `<label id="notify" for="switch" data-listens>Enable notifications</label>
        <button id="switch" role="switch" aria-checked="false" aria-labelledby="notify"></button>
        <label id="shown" for="other" data-listens>Shown</label><button id="other" aria-label="Named otherwise"></button>`,
        true,
      ),
    ).toEqual(['- switch "Enable notifications" [e1]', '- generic "Shown" [e2]', '- button "Named otherwise" [e3]']);
  });

  it('gives a cell holding a control no ref: the control takes its place, as before', () => {
    expect(
      snap(`<div role="grid"><div role="row"><div role="gridcell"><button>Edit</button></div></div></div>`),
    ).toEqual(['- grid', '  - row', '    - button "Edit" [e1]']);
  });

  it('gives a ref to an element whose cursor says it can be clicked or dragged, once per cursor', () => {
    expect(
      snap(`<ul>
        <li role="listitem" tabindex="-2" style="cursor: pointer"><span>Reports</span></li>
        <li style="cursor: move">Fix loading dock door</li>
        <li style="cursor: grab"><span style="cursor: grab">Order pallets</span></li>
        <li>Plain</li>
      </ul>`),
    ).toEqual([
      '- list',
      '  - listitem "Reports" [e1]',
      '  - listitem "Fix loading dock door" [e2]',
      '  - listitem "Order pallets" [e3]',
      '  - listitem "Plain"',
    ]);
  });

  it('gives a hand-cursor box no ref when a control inside has one, in a shadow tree too', () => {
    document.body.innerHTML = `<div id="field"></div>
      <div style="cursor: pointer"><button>Save</button></div>
      <div style="cursor: pointer">Open report</div>`;
    document.getElementById('field')!.attachShadow({ mode: 'open' }).innerHTML = `<label>Region</label>
      <div style="cursor: pointer"><div role="combobox" tabindex="0" aria-label="Region">Choose a region</div></div>`;
    expect(walkSnapshot(document.body, { refs: new RefRegistry(''), pseudoElements: false }).lines).toEqual([
      '- "Region"',
      '- combobox "Region" [e1]',
      '- button "Save" [e2]',
      '- generic "Open report" [e3]',
    ]);
  });

  it('gives a ref to an element with an inline handler (a datepicker arrow without href)', () => {
    expect(snap(`<div><a title="Next" onclick="void 0">Next</a> <a>Plain anchor</a></div>`)).toEqual([
      '- generic "Next" [e1]',
      '- "Plain anchor"',
    ]);
  });

  it('keeps a named wrapper in the tab order on its own line, named, around its control', () => {
    expect(
      snap(`<ul><li title="Previous Page" tabindex="0"><button aria-label="left">‹</button></li>
        <li title="Next Page" tabindex="0"><button aria-label="right">›</button></li></ul>`),
    ).toEqual([
      '- list',
      '  - listitem "Previous Page" [e2]',
      '    - button "left" [e1]',
      '  - listitem "Next Page" [e4]',
      '    - button "right" [e3]',
    ]);
  });

  it('leaves an unnamed element in the tab order (a scrolling code block) as it was', () => {
    expect(snap(`<pre tabindex="0">const a = 1;</pre>`)).toEqual(['- "const a = 1;"']);
  });

  it('gives a ref to an element with listeners of its own', () => {
    expect(
      snap(`<div ${LISTENED}>Fix loading dock door</div><span ${LISTENED} role="listitem">Alpha</span>`, true),
    ).toEqual(['- generic "Fix loading dock door" [e1]', '- listitem "Alpha" [e2]']);
  });

  it('gives none to an empty, unnamed box with listeners (a resize handle)', () => {
    expect(
      snap(`<div role="row"><div ${LISTENED}></div><div ${LISTENED} aria-label="Resize"></div></div>`, true),
    ).toEqual(['- row', '  - generic "Resize" [e1]']);
  });

  it('gives none to body, nor to a container that listens for its items (event delegation)', () => {
    document.body.setAttribute(LISTENED, '');
    const lines = snap(
      `<div id="root" ${LISTENED}><div class="grid" ${LISTENED}>
        <div role="gridcell">PO-1003</div><div role="gridcell">PO-1004</div>
      </div><p>Total 2</p></div>`,
      true,
    );
    document.body.removeAttribute(LISTENED);
    expect(lines).toEqual(['- gridcell "PO-1003" [e1]', '- gridcell "PO-1004" [e2]', '- "Total 2"']);
  });

  it('knows nothing of listeners where the document has no record', () => {
    expect(snap(`<div ${LISTENED}>Fix loading dock door</div>`)).toEqual(['- "Fix loading dock door"']);
  });
});
