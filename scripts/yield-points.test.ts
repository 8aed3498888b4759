import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withYieldPoints } from './yield-points';

const MODULE = [
  '// generated',
  ...Array.from({ length: 7 }, (_, n) =>
    n === 0 ? 'export const s0 = { n: 0 };' : `export const s${n} = {\n  n: ${n},\n  before: s${n - 1},\n};`,
  ),
  'export function last() {',
  '  return s6.before.n;',
  '}',
].join('\n');

const scratch = mkdtempSync(join(tmpdir(), 'yield-points-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function load(code: string, name: string): Promise<Record<string, unknown>> {
  const file = join(scratch, name);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

describe('withYieldPoints', () => {
  it('returns to the event loop every few top-level declarations, and only there', () => {
    const code = withYieldPoints(MODULE, 3);
    const lines = code.split('\n');
    const steps = lines.flatMap((line, index) => (line.startsWith('await ') ? [lines[index + 1]] : []));
    expect(steps).toEqual(['export const s2 = {', 'export const s5 = {']);
    expect(code.replace(/^await .*\n/gm, '')).toBe(MODULE);
  });

  it('exports the same values once the module has finished', async () => {
    const plain = await load(MODULE, 'plain.mjs');
    const sliced = await load(withYieldPoints(MODULE, 2), 'sliced.mjs');
    expect(JSON.stringify(Object.keys(sliced))).toBe(JSON.stringify(Object.keys(plain)));
    expect(sliced.s6).toEqual(plain.s6);
    expect((sliced.last as () => number)()).toBe(5);
  });
});
