// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { PageAgent } from './agent';
import { RefRegistry } from './refs';
import { walkSnapshot } from './snapshot';
import { refOfLine, withoutRefs } from './snapshot-line';
import type { TargetQuery } from './target-match';

const walk = (refs: RefRegistry, targets?: TargetQuery[]) =>
  walkSnapshot(document.body, { refs, pseudoElements: false, ...(targets ? { targets } : {}) }).lines;

const BOARD = `
  <section aria-label="To do"><h2>To do</h2><div draggable="true">Write report</div></section>
  <section aria-label="Done"><h2>Done</h2><p>Nothing here yet</p></section>
  <table aria-label="Prices"><tr><td>1760</td><td>1820</td></tr></table>
  <ul aria-label="Backlog"><li>Alpha</li><li>Bravo <button>Move Bravo</button></li></ul>
  <p>Go to <span>the</span> next page</p>`;

describe('walking a page to look up targets', () => {
  beforeEach(() => document.body.replaceChildren());

  it('gives a ref to each line a target names, and leaves every other line as a snapshot prints it', () => {
    document.body.innerHTML = BOARD;
    const plain = walk(new RefRegistry(''));
    expect(plain).toContain('- region "Done"');
    expect(plain).toContain('    - cell "1760"');
    const refs = new RefRegistry('');
    const looked = walk(refs, [
      { role: 'region', name: 'Done' },
      { role: 'cell', name: '1760' },
      { role: 'listitem', name: 'Alpha' },
      { role: 'text', name: 'Bravo' },
      { role: 'text', name: 'Go to the next page' },
    ]);
    // Only the named lines differ, and only by their ref.
    expect(looked.map(withoutRefs)).toEqual(plain.map(withoutRefs));
    const changed = looked.filter((line, i) => refOfLine(line) && !refOfLine(plain[i]!));
    expect(changed.map(withoutRefs)).toEqual([
      '- region "Done"',
      '    - cell "1760"',
      '  - listitem "Alpha"',
      '    - "Bravo"',
      '- "Go to the next page"',
    ]);
    const element = (text: string) => refs.resolve(refOfLine(looked.find((line) => line.includes(text))!)!);
    expect(element('region "Done"')).toBe(document.querySelector('[aria-label="Done"]'));
    expect(element('cell "1760"')).toBe(document.querySelector('td'));
    expect(element('listitem "Alpha"')).toBe(document.querySelector('li'));
    // A run of text is acted on through the innermost element that holds all of it.
    expect(element('"Bravo"')).toBe(document.querySelectorAll('li')[1]);
    expect(element('"Go to the next page"')).toBe(document.querySelector('body > p'));
  });

  it('matches the name as printed: neutralised, whole, with the role when one is given', () => {
    document.body.innerHTML = `<button>Say "hi"\n now</button><p>Save</p><button>Save</button><button>Save all</button>`;
    const refs = new RefRegistry('');
    const lines = walk(refs, [{ name: 'Say "hi" now' }, { name: 'Save' }, { role: 'button', name: 'Save a' }]);
    expect(lines).toEqual([
      '- button "Say ”hi” now" [e1]',
      '- "Save" [e2]',
      '- button "Save" [e3]',
      '- button "Save all" [e4]',
    ]);
    expect(refs.resolve('e2')).toBe(document.querySelector('p'));
  });

  it('finds lines inside open shadow roots, and never a hidden element', () => {
    document.body.innerHTML = '<x-card><span slot="title">Blue kettle</span></x-card><p hidden>Done</p>';
    const host = document.body.firstElementChild!;
    host.attachShadow({ mode: 'open' }).innerHTML =
      '<article aria-label="Product"><h3><slot name="title"></slot></h3><div role="status">In stock</div></article>' +
      '<div style="display:none" role="region" aria-label="Done">Hidden</div>';
    const refs = new RefRegistry('');
    const lines = walk(refs, [{ role: 'status', name: 'In stock' }, { name: 'Done' }]);
    expect(lines).toEqual(['- article "Product"', '  - heading "Blue kettle" [level=3]', '  - status "In stock" [e1]']);
    expect(refs.resolve('e1')).toBe(host.shadowRoot!.querySelector('[role=status]'));
  });

  it('acts on a run of text through the element that renders it, slotted text included', () => {
    document.body.innerHTML = '<x-step><b>2</b></x-step>';
    const host = document.body.firstElementChild!;
    host.attachShadow({ mode: 'open' }).innerHTML = '<div><span>Step <slot></slot> of 3</span></div>';
    const refs = new RefRegistry('');
    expect(walk(refs, [{ role: 'text', name: 'Step 2 of 3' }])).toEqual(['- "Step 2 of 3" [e1]']);
    expect(refs.resolve('e1')).toBe(host.shadowRoot!.querySelector('span'));
  });

  it('keeps a run of text named as one when a container takes it as its name', () => {
    document.body.innerHTML = '<ul><li>Alpha</li></ul>';
    expect(walk(new RefRegistry(''), [{ role: 'text', name: 'Alpha' }])).toEqual(['- list', '  - listitem "Alpha"']);
  });

  it('answers a snapshot command that looks up targets with refs the agent then resolves', async () => {
    document.body.innerHTML = BOARD;
    const agent = new PageAgent(document);
    const reply = (await agent.handle({
      op: 'snapshot',
      refBase: 40,
      frameId: 3,
      targets: [{ role: 'region', name: 'Done' }],
    })) as { ok: true; value: { lines: string[]; nextRef: number } };
    const line = reply.value.lines.find((candidate) => candidate.includes('region "Done"'))!;
    expect(line).toBe('- region "Done" [f3e41]');
    expect(agent.resolveTarget({ ref: 'f3e41' })).toBe(document.querySelector('[aria-label="Done"]'));
    // Numbered from the tab's counter like any other ref: the draggable card, the region, the button.
    expect(reply.value.nextRef).toBe(43);
  });
});
