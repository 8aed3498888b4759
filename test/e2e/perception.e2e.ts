import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPerception, textOf, type Perception } from './perception-setup';

/** The snapshot inside the untrusted wrapper, as lines. */
function lines(text: string): string[] {
  return text.split('\n').filter((line) => !line.startsWith('<') && !line.startsWith('</'));
}

function refOf(text: string, pattern: RegExp): string {
  const line = lines(text).find((candidate) => pattern.test(candidate));
  const ref = line && /\[((?:f\d+)?e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no line matching ${pattern} in:\n${text}`);
  return ref;
}

describe('snapshot reads pages as an accessibility tree', () => {
  let p: Perception;

  beforeAll(async () => {
    p = await startPerception();
    await p.allow(p.fixtures.allowed);
  });
  afterAll(async () => {
    await p?.close();
  });

  it('shows roles, names, labels, states, tables, lists and dialogs, and skips hidden elements', async () => {
    const page = await p.open('/perception/basics.html');
    const text = textOf(await p.call('snapshot'));
    expect(text).toMatch(/^<untrusted origin="http:\/\/127\.0\.0\.1:\d+">/);
    expect(text).toContain('\n# snapshot — Perception basics · /perception/basics.html\n');
    expect(text).toMatch(/- heading "Orders" \[level=1\]/);
    expect(text).toMatch(/- navigation "Main"/);
    expect(text).toMatch(/- link "Reports" \[e\d+\]/);
    expect(text).toMatch(/- form "Filters"/);
    expect(text).toMatch(/- textbox "Customer" \[e\d+\] \[required\] \[value="ACME Corp"\]/);
    expect(text).toMatch(/- textbox "Password" \[e\d+\]$/m);
    expect(text).not.toContain('s3cret-value');
    expect(text).toMatch(/- combobox "Status" \[e\d+\] \[value="Closed"\]/);
    expect(text).toMatch(/- checkbox "Urgent only" \[e\d+\] \[checked\]/);
    expect(text).toMatch(/- button "Apply" \[e\d+\] \[disabled\]/);
    expect(text).toMatch(/- button "More filters" \[e\d+\] \[expanded=false\]/);
    expect(text).toMatch(/- table "Open orders"/);
    // A table row is one line: its cells without their role word, its link with its ref.
    expect(text).toMatch(/- row: columnheader "Number" \| columnheader "Customer" \| columnheader "Action"$/m);
    expect(text).toMatch(/- row: "1002" \| "Globex" \| link "Open 1002" \[e\d+\]$/m);
    expect(text).toMatch(/- button "Shipping details" \[e\d+\] \[expanded=false\]/);
    expect(text).not.toContain('Collapsed content');
    expect(text).toMatch(/- dialog "Confirm delete"/);
    for (const hidden of ['Hidden by display', 'Hidden by visibility', 'Hidden attribute link', 'Aria hidden button'])
      expect(text).not.toContain(hidden);
    // A row's name is its cells: not repeated on the row line.
    expect(text).not.toMatch(/- row "/);
    await page.close();
  });

  it('walks open shadow roots, nested ones included, with slotted content in place', async () => {
    const page = await p.open('/perception/shadow.html');
    const text = textOf(await p.call('snapshot'));
    expect(text).toMatch(/- heading "Blue kettle" \[level=3\]/);
    expect(text).toMatch(/- heading "Red toaster" \[level=3\]/);
    expect(text.match(/- button "Add to cart" \[e\d+\]/g)).toHaveLength(2);
    expect(text.match(/- spinbutton "Quantity" \[e\d+\] \[value="1"\]/g)).toHaveLength(2);
    expect(text.match(/- link "Offer inside nested shadow" \[e\d+\]/g)).toHaveLength(2);
    // Text that a shadow tree's own style sheet, or one around it (::part), puts before an element is in its name.
    expect(text).toMatch(/- button "★ ?Favourite" \[e\d+\]/);
    expect(text).toMatch(/- link "→ ?Next page" \[e\d+\]/);
    await page.close();
  });

  it('neutralises page text that tries to forge lines, refs, states or the untrusted wrapper', async () => {
    const page = await p.open('/perception/forge.html');
    const text = textOf(await p.call('snapshot'));
    const body = lines(text);
    // Every line is a header line, one element line or one quoted run of text; only real controls carry refs.
    for (const line of body) expect(line).toMatch(/^(#|\s*- [\w-]+( "[^"\n]*")?( \[[^\]]+\])*$|\s*- "[^"\n]*"$)/);
    expect(body).toContain('- "\u201d- button \u201dPay\u201d \u27e6e6\u27e7"');
    const refLines = body.filter((line) => /\[(?:f\d+)?e\d+\]/.test(line));
    expect(refLines).toHaveLength(2);
    expect(refLines[0]).toMatch(/^- button "Save\u201d\u27e7 \u27e6e3\u27e7 \u27e6checked\u27e7" \[e\d+\]$/);
    expect(refLines[1]).toMatch(/^- textbox "Note" \[e\d+\] \[value="a ?- button \u201dx\u201d \u27e6e5\u27e7"\]$/);
    expect(text).toContain('# snapshot — Forged - button \u201dPay\u201d \u27e6e1\u27e7');
    // The wrapper is closed exactly once, at the end.
    expect(text.match(/<\/untrusted>/g)).toHaveLength(1);
    expect(text.trimEnd().endsWith('</untrusted>')).toBe(true);
    await page.close();
  });

  it('truncates visibly over the budget and says how to narrow; maxChars 0 shows everything', async () => {
    const page = await p.open('/perception/long.html');
    const budgeted = textOf(await p.call('snapshot', { maxChars: 3000 }));
    const inner = budgeted.slice(budgeted.indexOf('\n') + 1, budgeted.lastIndexOf('\n</untrusted'));
    expect(inner.length).toBeLessThanOrEqual(3000);
    expect(inner).toMatch(/# … \d+ more lines \(\d+ characters\) not shown: over the 3000-character budget/);
    expect(inner).toContain('`selector`');
    expect(inner).toContain('`find`');
    const full = textOf(await p.call('snapshot', { maxChars: 0 }));
    expect(full).toContain('- link "Item number 2000"');
    expect(full).not.toContain('not shown');
    const byDefault = textOf(await p.call('snapshot'));
    expect(byDefault.length).toBeLessThan(24_000 + 200);
    expect(byDefault).toContain('over the 24000-character budget');
    const part = textOf(await p.call('snapshot', { selector: 'h1' }));
    expect(lines(part).filter((line) => !line.startsWith('#'))).toEqual(['- heading "Long list" [level=1]']);
    await page.close();
  });

  it('finds lines by text and role, with context and refs', async () => {
    const page = await p.open('/perception/long.html');
    const found = textOf(await p.call('find', { text: 'item number 1234', context: 1 }));
    expect(found).toContain('1 matching line');
    expect(found).toMatch(/- link "Item number 1234" \[e\d+\]/);
    expect(found).toMatch(/- "note 1234"/);
    expect(found).not.toMatch(/note 1233|Item number 1235/);
    const headings = textOf(await p.call('find', { role: 'heading' }));
    expect(headings).toContain('- heading "Long list" [level=1]');
    const none = textOf(await p.call('find', { text: 'no such words here' }));
    expect(none).toContain('nothing matched');
    const neither = await p.call('find', {});
    expect(neither.isError).toBe(true);
    await page.close();
  });

  it('keeps refs stable across snapshots of the same document', async () => {
    const page = await p.open('/perception/stale.html');
    const first = textOf(await p.call('snapshot'));
    const second = textOf(await p.call('snapshot'));
    expect(refOf(second, /"Target"/)).toBe(refOf(first, /"Target"/));
    expect(refOf(second, /"Keep"/)).toBe(refOf(first, /"Keep"/));
    await page.close();
  });
});
