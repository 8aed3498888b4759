// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { PageAgent } from '../agent';
import { watchPasswordFields } from '../secret-field';

async function readDom(selector?: string): Promise<string> {
  const answer = (await new PageAgent(document).handle({
    op: 'readDom',
    maxChars: 0,
    ...(selector ? { selector } : {}),
  })) as { ok: boolean; value: { html: string } };
  expect(answer.ok).toBe(true);
  return answer.value.html;
}

describe('read_dom', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('never shows a secret field’s value, whatever the markup or the field’s current value', async () => {
    document.body.innerHTML = `<form>
      <input id="a" type="password" value="hunter2">
      <input id="b" VALUE='hunter3' data-note="x" TYPE="PASSWORD">
      <input id="c" type="text" autocomplete="username current-password" value="hunter4">
      <input id="d" type="text" autocomplete="one-time-code" value="hunter5">
      <input id="e" type="password">
      <input id="f" name="user" value="alice" data-value="kept">
      <input id="g" type="text" value="shown-but-was-password">
    </form>`;
    (document.getElementById('e') as HTMLInputElement).value = 'typed-hunter6';
    watchPasswordFields(document);
    const toggled = document.getElementById('g') as HTMLInputElement;
    toggled.type = 'password';
    await Promise.resolve();
    toggled.type = 'text';
    await Promise.resolve();
    const html = await readDom('form');
    for (const secret of ['hunter2', 'hunter3', 'hunter4', 'hunter5', 'hunter6', 'shown-but-was-password']) {
      expect(html).not.toContain(secret);
    }
    expect(html).toContain('<input id="a" type="password" value="(hidden)">');
    expect(html).toContain('<input id="b" value="(hidden)" data-note="x" type="PASSWORD">');
    expect(html).toContain('autocomplete="username current-password" value="(hidden)"');
    expect(html).toContain('<input id="e" type="password">');
    expect(html).toContain('<input id="f" name="user" value="alice" data-value="kept">');
  });

  it('leaves the page itself as it was', async () => {
    document.body.innerHTML = '<input id="a" type="password" value="hunter2"><script>var x = 1;</script>';
    const html = await readDom();
    expect(html).toContain('<script>…</script>');
    expect(document.getElementById('a')!.getAttribute('value')).toBe('hunter2');
    expect(document.querySelector('script')!.textContent).toBe('var x = 1;');
  });

  it('redacts inside shadow roots as well', async () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input type="password" value="shadow-hunter"><p>Shadow text</p>';
    const html = await readDom();
    expect(html).not.toContain('shadow-hunter');
  });
});
