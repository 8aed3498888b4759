// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { PageAgent } from './agent';
import { RefRegistry } from './refs';
import { isSecretField, watchPasswordToggles } from './secret-field';
import { walkSnapshot } from './snapshot';

const SECRET = 'correct-horse-battery';

function field(markup: string): HTMLInputElement {
  document.body.innerHTML = markup;
  const input = document.querySelector('input')!;
  input.value = SECRET;
  return input;
}

const snapshotText = (refs = new RefRegistry('')) =>
  walkSnapshot(document.body, { refs, pseudoElements: false }).lines.join('\n');

/** Lets the mutation observer deliver its records. */
const flushObservers = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('isSecretField', () => {
  beforeEach(() => document.body.replaceChildren());

  it('knows password fields and fields marked for passwords, codes and card secrets', () => {
    expect(isSecretField(field('<input type="password">'))).toBe(true);
    expect(isSecretField(field('<input type="PASSWORD">'))).toBe(true);
    for (const token of ['current-password', 'new-password', 'one-time-code', 'section-a cc-csc', 'cc-number']) {
      expect(isSecretField(field(`<input type="text" autocomplete="${token}">`)), token).toBe(true);
    }
    expect(isSecretField(field('<input type="text" autocomplete="username">'))).toBe(false);
    expect(isSecretField(field('<input type="email">'))).toBe(false);
  });

  it('keeps a field secret after the page turns it into a text field, once it was seen as a password', () => {
    const input = field('<input type="password" aria-label="Password">');
    expect(isSecretField(input)).toBe(true);
    input.type = 'text';
    expect(isSecretField(input)).toBe(true);
    // A field that was never a password and carries no token is not.
    expect(isSecretField(field('<input type="text" aria-label="Password">'))).toBe(false);
  });

  it('catches a toggle nobody looked at before, once the toggles are watched', async () => {
    document.body.innerHTML = '<input id="early" type="password"><div id="later"></div>';
    watchPasswordToggles(document);
    const early = document.querySelector<HTMLInputElement>('#early')!;
    early.type = 'text';
    const late = document.createElement('input');
    late.type = 'password';
    document.querySelector('#later')!.append(late);
    await flushObservers();
    late.setAttribute('type', 'text');
    await flushObservers();
    expect(isSecretField(early)).toBe(true);
    expect(isSecretField(late)).toBe(true);
  });
});

describe('a "Show password" toggle', () => {
  it('never puts the value in a snapshot line, before or after the toggle', () => {
    const input = field('<label>Password <input type="password" autocomplete="current-password"></label>');
    expect(snapshotText()).not.toContain(SECRET);
    input.type = 'text';
    expect(snapshotText()).toMatch(/- textbox "Password" \[e\d+\]$/);
    expect(snapshotText()).not.toContain(SECRET);
  });

  it('keeps the value out when the field has no autocomplete token, once a snapshot saw it', () => {
    const input = field('<label>PIN <input type="password"></label>');
    expect(snapshotText()).not.toContain(SECRET);
    input.setAttribute('type', 'text');
    expect(snapshotText()).toContain('textbox "PIN"');
    expect(snapshotText()).not.toContain(SECRET);
  });

  it('keeps a hidden password field secret once it is shown as text', () => {
    const input = field('<label>Code <input type="password" style="visibility:hidden"></label>');
    snapshotText();
    input.type = 'text';
    input.style.visibility = 'visible';
    expect(snapshotText()).toContain('textbox "Code"');
    expect(snapshotText()).not.toContain(SECRET);
  });

  it('is masked in what inspectTargets reports, even toggled before any snapshot', async () => {
    document.body.innerHTML = '<label>Password <input id="p" type="password"></label><button>Show</button>';
    const agent = new PageAgent(document);
    document.querySelector<HTMLInputElement>('#p')!.type = 'text';
    await flushObservers();
    const reply = agent.handle({ op: 'inspectTargets', targets: [{ selector: '#p' }, { selector: 'button' }] });
    expect(reply).toEqual({
      url: expect.any(String),
      documentId: expect.any(String),
      ok: true,
      value: {
        targets: [
          { found: true, secret: true, role: 'textbox', name: 'Password' },
          { found: true, secret: false, role: 'button', name: 'Show' },
        ],
      },
    });
  });
});
