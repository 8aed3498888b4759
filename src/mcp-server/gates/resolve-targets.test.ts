import { describe, expect, it } from 'vitest';
import type { TargetQuery } from '../../page/target-match';
import { CANDIDATES_SHOWN, resolvedText, resolveTargets, type TargetLookup } from './resolve-targets';

const URL = 'https://shop.example/orders';

/** A page as the lookup returns it: stitched lines, each line a query names carrying a ref. */
const PAGE = [
  '- button "Open" [e1]',
  '- table "Orders"',
  '  - row "Order 1002"',
  '    - gridcell "1760" [e8]',
  '    - button "Delete" [e9]',
  '  - row "Order 1003"',
  '    - gridcell "1820" [e10]',
  '    - button "Delete" [e11]',
  '- iframe "Checkout"',
  '  - button "Open" [f5e3]',
  '  - region "Done" [f5e4]',
  '  - "Next" [f5e5]',
  '- iframe "Ads"',
  '  # (frame content not available: its site is not allowed, or it is still loading)',
];

function reader(lines = PAGE) {
  const asked: TargetQuery[][] = [];
  const read = async (queries: TargetQuery[]): Promise<TargetLookup> => {
    asked.push(queries);
    return { url: URL, lines };
  };
  return { read, asked };
}

describe('resolving targets to refs', () => {
  it('reads nothing for arguments without a target', async () => {
    const { read, asked } = reader();
    expect(await resolveTargets({ ref: 'e1' }, read)).toEqual({ ok: true, args: { ref: 'e1' }, resolved: [] });
    expect(asked).toEqual([]);
  });

  it('resolves one match to its ref, a run of text and a line in a child frame included', async () => {
    const { read } = reader();
    for (const [target, ref] of [
      [{ role: 'gridcell', name: '1760' }, 'e8'],
      [{ role: 'text', name: 'Next' }, 'f5e5'],
      [{ role: 'region', name: 'Done' }, 'f5e4'],
    ] as const) {
      const resolution = await resolveTargets({ target: target, button: 'left' }, read);
      expect(resolution).toMatchObject({ ok: true, args: { ref, target, button: 'left' } });
    }
  });

  it('refuses several matches without nth, listing each with its ref and where it is', async () => {
    const resolution = await resolveTargets({ target: { role: 'button', name: 'Delete' } }, reader().read);
    expect(resolution).toMatchObject({ ok: false, url: URL });
    if (resolution.ok) return;
    expect(resolution.text).toMatch(/^2 elements on the page are printed as button "Delete": pass `nth` \(1 to 2/);
    expect(resolution.candidates).toBe(
      ['1. button "Delete" [e9] · in row "Order 1002"', '2. button "Delete" [e11] · in row "Order 1003"'].join('\n'),
    );
  });

  it('picks the nth match in snapshot order, the top document first and each frame where it is stitched', async () => {
    const { read } = reader();
    const first = await resolveTargets({ target: { role: 'button', name: 'Open', nth: 1 } }, read);
    const second = await resolveTargets({ target: { role: 'button', name: 'Open', nth: 2 } }, read);
    expect(first).toMatchObject({ ok: true, args: { ref: 'e1' } });
    expect(second).toMatchObject({ ok: true, args: { ref: 'f5e3' } });
    const past = await resolveTargets({ target: { role: 'button', name: 'Open', nth: 3 } }, read);
    expect(past).toMatchObject({ ok: false, candidates: expect.stringContaining('2. button "Open" [f5e3]') });
    if (!past.ok) expect(past.text).toMatch(/nth=3 is past the 2 elements printed as button "Open"/);
  });

  it('refuses a target nothing matches, suggesting find, and lists nothing', async () => {
    const resolution = await resolveTargets({ target: { role: 'button', name: 'Dele' } }, reader().read);
    expect(resolution).toMatchObject({ ok: false });
    if (resolution.ok) return;
    expect(resolution.text).toMatch(/No element on the page is printed as button "Dele".*call find/);
    expect(resolution.candidates).toBeUndefined();
  });

  it('looks every target of a call up in one read, and resolves each in its place', async () => {
    const { read, asked } = reader();
    const resolution = await resolveTargets(
      {
        target: { role: 'button', name: 'Open', nth: 2 },
        toTarget: { role: 'region', name: 'Done' },
        fields: [{ target: { role: 'button', name: 'Open', nth: 1 }, value: 'x' }],
      },
      read,
    );
    expect(asked).toEqual([
      [
        { role: 'button', name: 'Open' },
        { role: 'region', name: 'Done' },
      ],
    ]);
    expect(resolution).toMatchObject({
      ok: true,
      args: { ref: 'f5e3', toRef: 'f5e4', fields: [{ ref: 'e1', value: 'x' }] },
    });
    if (resolution.ok)
      expect(resolution.resolved.map(resolvedText)).toEqual([
        'button "Open" nth=2 → f5e3',
        'region "Done" → f5e4',
        'button "Open" nth=1 → e1',
      ]);
  });

  it('says which argument failed when a call has several targets', async () => {
    const resolution = await resolveTargets(
      {
        fields: [
          { target: { name: '1760' }, value: 'a' },
          { target: { name: 'Nowhere' }, value: 'b' },
        ],
      },
      reader().read,
    );
    expect(resolution).toMatchObject({ ok: false, text: expect.stringMatching(/^fields\[1\]\.target: No element/) });
  });

  it('refuses an element named both by ref and by target without reading the page', async () => {
    const { read, asked } = reader();
    const resolution = await resolveTargets({ toRef: 'e1', toTarget: { name: 'Done' } }, read);
    expect(resolution).toMatchObject({
      ok: false,
      text: expect.stringMatching(/by `toRef`, `toSelector` or `toTarget`, not several/),
    });
    expect(asked).toEqual([]);
  });

  it('counts the candidates it does not list', async () => {
    const lines = Array.from({ length: CANDIDATES_SHOWN + 5 }, (_, i) => `- button "Add" [e${i + 1}]`);
    const resolution = await resolveTargets({ target: { name: 'Add' } }, reader(lines).read);
    if (resolution.ok) throw new Error('resolved');
    expect(resolution.candidates?.split('\n')).toHaveLength(CANDIDATES_SHOWN + 1);
    expect(resolution.candidates).toMatch(/… 5 more$/);
  });
});
