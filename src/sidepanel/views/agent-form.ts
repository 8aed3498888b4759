/** The "add an agent" form: name, broker URL and token, checked before anything is saved. */
import { checkBrokerUrl, checkToken } from '../../acp/broker-url';
import { h } from '../dom';
import { t } from '../i18n';

export interface NewAgent {
  name: string;
  url: string;
  token: string;
  acceptInsecureToken: boolean;
}

export function checkNewAgent(
  input: NewAgent,
  takenNames: readonly string[],
): { ok: true; value: NewAgent } | { ok: false; field: 'name' | 'url' | 'token'; error: string } {
  const name = input.name.trim();
  if (!name) return { ok: false, field: 'name', error: t('nameRequired') };
  if (takenNames.some((taken) => taken.toLowerCase() === name.toLowerCase()))
    return { ok: false, field: 'name', error: t('nameTaken') };
  const url = checkBrokerUrl(input.url);
  if (!url.ok) return { ok: false, field: 'url', error: url.error };
  const token = checkToken(input.token);
  if (!token.ok) return { ok: false, field: 'token', error: token.error };
  if (token.value && url.value.insecureForToken && !input.acceptInsecureToken) {
    return { ok: false, field: 'url', error: t('insecureTokenRefused') };
  }
  return {
    ok: true,
    value: { name, url: url.value.url, token: token.value, acceptInsecureToken: input.acceptInsecureToken },
  };
}

let formSeq = 0;

export function agentForm(options: {
  defaultUrl?: string;
  takenNames(): readonly string[];
  onSubmit(agent: NewAgent): Promise<void>;
}): HTMLFormElement {
  const id = `agent-form-${++formSeq}`;
  const field = (key: string, label: string, input: HTMLInputElement, hint?: string) => {
    input.id = `${id}-${key}`;
    const error = h('p', { className: 'field-error', id: `${id}-${key}-error`, role: 'alert' });
    input.setAttribute('aria-describedby', error.id);
    return {
      error,
      element: h(
        'div',
        { className: 'field' },
        h('label', { for: input.id }, label),
        input,
        hint ? h('p', { className: 'hint' }, hint) : null,
        error,
      ),
    };
  };
  const nameInput = h('input', { type: 'text', autocomplete: 'off', required: true, maxlength: 64 });
  const urlInput = h('input', {
    type: 'url',
    autocomplete: 'off',
    required: true,
    value: options.defaultUrl ?? '',
    placeholder: 'ws://127.0.0.1:8765/acp',
  });
  const tokenInput = h('input', { type: 'password', autocomplete: 'off' });
  const insecure = h('input', { type: 'checkbox', id: `${id}-insecure` });
  const fields = {
    name: field('name', t('agentName'), nameInput),
    url: field('url', t('brokerUrl'), urlInput),
    token: field('token', t('token'), tokenInput, t('tokenHint')),
  };
  const submit = h('button', { type: 'submit', className: 'primary' }, t('addAgent'));
  const form = h(
    'form',
    { className: 'agent-form', novalidate: true },
    fields.name.element,
    fields.url.element,
    fields.token.element,
    h('div', { className: 'field checkbox' }, insecure, h('label', { for: insecure.id }, t('acceptInsecure'))),
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    for (const f of Object.values(fields)) f.error.textContent = '';
    const checked = checkNewAgent(
      { name: nameInput.value, url: urlInput.value, token: tokenInput.value, acceptInsecureToken: insecure.checked },
      options.takenNames(),
    );
    if (!checked.ok) {
      fields[checked.field].error.textContent = checked.error;
      ({ name: nameInput, url: urlInput, token: tokenInput })[checked.field].focus();
      return;
    }
    submit.disabled = true;
    void options.onSubmit(checked.value).finally(() => {
      submit.disabled = false;
      nameInput.value = '';
      tokenInput.value = '';
    });
  });
  return form;
}
