import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPerception, textOf, type Perception } from './perception-setup';

function refOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((candidate) => pattern.test(candidate));
  const ref = line && /\[((?:f\d+)?e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no line matching ${pattern} in:\n${text}`);
  return ref;
}

const refNumbers = (text: string) => [...text.matchAll(/\[(?:f\d+)?e(\d+)\]/g)].map((m) => Number(m[1]));

describe('frames and refs that never lie', () => {
  let p: Perception;

  beforeAll(async () => {
    p = await startPerception();
    await p.allow(p.fixtures.allowed);
    await p.setActMode(true);
  });
  afterAll(async () => {
    await p?.close();
  });

  it('stitches same-origin and srcdoc frames in with frame-prefixed refs; a not-allowed origin stays out', async () => {
    const page = await p.open('/perception/frames.html');
    await page.frameLocator('#cross').locator('#inner').waitFor();
    const text = textOf(await p.call('snapshot'));
    const at = (pattern: RegExp) => text.split('\n').findIndex((line) => pattern.test(line));
    expect(text).toMatch(/^- button "Top button" \[e\d+\]$/m);
    // The same-origin child sits under its iframe line, one level deeper, refs prefixed by frame id.
    const same = at(/^- iframe "Same origin"$/);
    expect(same).toBeGreaterThan(0);
    expect(text.split('\n')[same + 1]).toBe('  - "Frame same"');
    expect(text.split('\n')[same + 2]).toMatch(/^ {2}- button "Inner same button" \[f\d+e\d+\]$/);
    expect(text).toMatch(/^ {2}- textbox "Inner field" \[f\d+e\d+\]$/m);
    expect(text).toMatch(/^- iframe "Inline document"\n {2}- button "Srcdoc button" \[f\d+e\d+\]$/m);
    // localhost is another origin and not in the allowed sites yet.
    expect(text).toMatch(/^- iframe "Cross origin"\n {2}# \(frame content not available/m);
    expect(text).not.toContain('Inner cross button');
    await page.close();
  });

  it('shows a cross-origin frame once its site is allowed, and a frame ref acts in that frame', async () => {
    await p.allow(p.fixtures.other);
    const page = await p.open('/perception/frames.html');
    await page.frameLocator('#cross').locator('#inner').waitFor();
    const text = textOf(await p.call('snapshot'));
    expect(text).toMatch(
      /^- iframe "Cross origin"\n {2}- "Frame cross"\n {2}- button "Inner cross button" \[f\d+e\d+\]/m,
    );
    const crossRef = refOf(text, /"Inner cross button"/);
    const sameRef = refOf(text, /"Inner same button"/);
    expect(crossRef.split('e')[0]).not.toBe(sameRef.split('e')[0]);
    const clicked = await p.callConfirmed('click', { ref: crossRef });
    expect(clicked.isError).toBeFalsy();
    await expect.poll(() => page.frameLocator('#cross').locator('#who').textContent()).toBe('Clicked in cross');
    expect(await page.frameLocator('#same').locator('#who').textContent()).toBe('Frame same');
    await page.close();
  });

  it('refuses a ref whose element was replaced by a re-render, and nothing acts', async () => {
    const page = await p.open('/perception/stale.html');
    const before = textOf(await p.call('snapshot'));
    const target = refOf(before, /"Target"/);
    await page.evaluate(() => (window as unknown as { replaceApp(): void }).replaceApp());
    const refused = await p.callConfirmed('click', { ref: target });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/call snapshot again/i);
    expect(await page.locator('#log').textContent()).toBe('nothing');
    // The new button gets a new ref; the old one stays refused.
    const after = textOf(await p.call('snapshot'));
    const fresh = refOf(after, /"Target"/);
    expect(fresh).not.toBe(target);
    expect(Math.min(...refNumbers(after).filter((n) => !refNumbers(before).includes(n)))).toBeGreaterThan(
      Math.max(...refNumbers(before)),
    );
    expect((await p.callConfirmed('click', { ref: target })).isError).toBe(true);
    expect((await p.callConfirmed('click', { ref: fresh })).isError).toBeFalsy();
    await expect.poll(() => page.locator('#log').textContent()).toBe('clicked target');
    await page.close();
  });

  it('refuses a ref whose element was removed', async () => {
    const page = await p.open('/perception/stale.html');
    const keep = refOf(textOf(await p.call('snapshot')), /"Keep"/);
    await page.evaluate(() => document.getElementById('keep')!.remove());
    const refused = await p.callConfirmed('click', { ref: keep });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/call snapshot again/i);
    await page.close();
  });

  it('refuses refs of a document the tab navigated away from, and never reuses their numbers', async () => {
    const page = await p.open('/perception/stale.html');
    const before = textOf(await p.call('snapshot'));
    const target = refOf(before, /"Target"/);
    await page.goto(p.fixtures.url('/perception/stale.html?again'));
    const refused = await p.callConfirmed('click', { ref: target });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/call snapshot again/i);
    expect(await page.locator('#log').textContent()).toBe('nothing');
    const after = textOf(await p.call('snapshot'));
    expect(Math.min(...refNumbers(after))).toBeGreaterThan(Math.max(...refNumbers(before)));
    await page.close();
  });
});
