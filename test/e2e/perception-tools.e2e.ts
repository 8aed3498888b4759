import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPerception, textOf, type Perception } from './perception-setup';

describe('get_text, read_dom, tabs and wait_for', () => {
  let p: Perception;

  beforeAll(async () => {
    p = await startPerception();
    await p.allow(p.fixtures.allowed);
  });
  afterAll(async () => {
    await p?.close();
  });

  it('get_text reads visible text, shadow content included, capped with a visible cut', async () => {
    const page = await p.open('/perception/basics.html');
    const text = textOf(await p.call('get_text'));
    expect(text).toMatch(/^<untrusted origin="http:\/\/127\.0\.0\.1:\d+">/);
    expect(text).toContain('This cannot be undone.');
    expect(text).toContain('Globex');
    expect(text).not.toContain('Hidden by display');
    expect(text).not.toContain('Collapsed content');
    const part = textOf(await p.call('get_text', { selector: 'table' }));
    expect(part).toContain('1002');
    expect(part).not.toContain('This cannot be undone.');
    const capped = textOf(await p.call('get_text', { maxChars: 40 }));
    expect(capped).toMatch(/cut: showing 40 of \d+ characters \(budget 40\)/);
    await page.close();
    const shadow = await p.open('/perception/shadow.html');
    expect(textOf(await p.call('get_text'))).toContain('Offer inside nested shadow');
    await shadow.close();
    const framed = await p.open('/perception/frames.html');
    await framed.frameLocator('#same').locator('#inner').waitFor();
    const withFrames = textOf(await p.call('get_text'));
    expect(withFrames).toContain('Frames page');
    expect(withFrames).toMatch(
      /# frame http:\/\/127\.0\.0\.1:\d+\/perception\/frame-child\.html\?who=same\nFrame same/,
    );
    // localhost is not an allowed site here: its frame's text stays out.
    expect(withFrames).not.toContain('Frame cross');
    await framed.close();
  });

  it('read_dom returns markup with shadow roots, without script bodies or password values', async () => {
    const page = await p.open('/perception/basics.html');
    const html = textOf(await p.call('read_dom', { selector: 'form' }));
    expect(html).toContain('<form aria-labelledby="filters-title">');
    expect(html).toContain('value="(hidden)"');
    expect(html).not.toContain('s3cret-value');
    const capped = textOf(await p.call('read_dom', { maxChars: 100 }));
    expect(capped).toMatch(/cut: showing 100 of \d+ characters/);
    const missing = await p.call('read_dom', { selector: '#nothing-here' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('No element matches the selector #nothing-here');
    await page.close();
    const shadow = await p.open('/perception/shadow.html');
    const withShadow = textOf(await p.call('read_dom', { maxChars: 0 }));
    expect(withShadow).toContain('shadowrootmode="open"');
    expect(withShadow).toContain('Offer inside nested shadow');
    expect(withShadow).toMatch(/<script>…<\/script>/);
    await shadow.close();
  });

  it('read_dom never shows a secret field’s value: password, show-password and toggled fields, shadow roots', async () => {
    const page = await p.open('/perception/secrets.html');
    const secrets = ['hunter2', 'shown-hunter3', 'toggled-hunter4', 'shadow-hunter6'];
    const first = textOf(await p.call('read_dom', { maxChars: 0 }));
    expect(first).toContain('<input id="pw" type="password" value="(hidden)">');
    expect(first).toContain('autocomplete="current-password" value="(hidden)"');
    expect(first).toContain('value="alice"');
    expect(first).toContain('Inside shadow');
    for (const secret of secrets) expect(first).not.toContain(secret);
    // A "show password" toggle makes the field plain text; it stays a secret.
    await page.locator('#show').click();
    expect(await page.locator('#toggled').getAttribute('type')).toBe('text');
    const after = textOf(await p.call('read_dom', { selector: 'form' }));
    expect(after).toContain('<input id="toggled" type="text" value="(hidden)">');
    for (const secret of secrets) expect(after).not.toContain(secret);
    // The page itself keeps its values.
    expect(await page.locator('#pw').inputValue()).toBe('hunter2');
    await page.close();
  });

  it('tabs lists tab ids, marks the active one and hides tabs on sites that are not allowed', async () => {
    const hidden = await p.open('/perception/basics.html', p.fixtures.other);
    const shown = await p.open('/perception/shadow.html');
    const result = await p.call('tabs');
    const text = textOf(result);
    expect(text).toMatch(/- \[\d+\] \(active\) Shadow cards — http:\/\/127\.0\.0\.1:\d+\/perception\/shadow\.html/);
    expect(text).toMatch(/- \[\d+\] \(not allowed\)/);
    expect(text).not.toContain('localhost');
    expect(text).not.toContain('Perception basics');
    const listed = (result as unknown as { structuredContent: { tabs: Array<{ id: number; allowed?: boolean }> } })
      .structuredContent.tabs;
    expect(listed.filter((tab) => tab.allowed === false).length).toBeGreaterThanOrEqual(1);
    expect(new Set(listed.map((tab) => tab.id)).size).toBe(listed.length);
    await hidden.close();
    await shown.close();
  });

  it('wait_for sees text appear, in the page or in a frame, and returns the page', async () => {
    const page = await p.open('/perception/wait.html?delay=700');
    const appeared = await p.call('wait_for', { text: 'saved successfully', timeout: 10_000 });
    expect(appeared.isError).toBeFalsy();
    expect(textOf(appeared)).toMatch(/Waited \d+ ms: text "saved successfully" appeared\./);
    expect(textOf(appeared)).toContain('- "Saved successfully"');
    const inFrame = await p.call('wait_for', { text: 'Inner late button', timeout: 10_000 });
    expect(inFrame.isError).toBeFalsy();
    const element = await p.call('wait_for', { selector: '.done' });
    expect(element.isError).toBeFalsy();
    await page.close();
  });

  it('wait_for sees things disappear, times out with an error, and refuses bad arguments', async () => {
    const page = await p.open('/perception/wait.html?delay=1500');
    expect(textOf(await p.call('snapshot'))).toContain('- "Loading…"');
    const gone = await p.call('wait_for', { text: 'Loading', gone: true, timeout: 10_000 });
    expect(gone.isError).toBeFalsy();
    expect(textOf(gone)).toContain('disappeared');
    // Same document as the snapshot before: the answer is what changed, not the whole page again.
    expect(textOf(gone)).not.toContain('# snapshot —');
    expect(textOf(gone)).toMatch(/^[+~] +- "Saved successfully"/m);
    const started = Date.now();
    const late = await p.call('wait_for', { text: 'never shown anywhere', timeout: 600 });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toContain('Timed out after 600 ms');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await p.call('wait_for', {})).isError).toBe(true);
    expect((await p.call('wait_for', { text: 'a', selector: 'b' })).isError).toBe(true);
    const bad = await p.call('wait_for', { selector: '[[nope' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('not valid CSS');
    const tooLong = await p.call('wait_for', { text: 'x', timeout: 120_000 });
    expect(tooLong.isError).toBe(true);
    await page.close();
  });
});
