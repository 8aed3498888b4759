/**
 * Secret values in Settings: the user names a value (an account number, a recovery code) and it
 * is masked wherever an agent's call or a result carries it. Saved values are never shown again.
 */
import { h } from '../dom';
import { t } from '../i18n';

export interface SecretActions {
  names(): string[];
  add(name: string, value: string): Promise<string | undefined>;
  remove(name: string): Promise<void>;
}

export function secretsSection(actions: SecretActions, refresh: () => void): HTMLElement {
  const name = h('input', { type: 'text', id: 'secret-name', autocomplete: 'off' });
  const value = h('input', { type: 'password', id: 'secret-value', autocomplete: 'off' });
  const error = h('p', { className: 'field-error', role: 'alert', id: 'secret-error' });
  const form = h(
    'form',
    { className: 'secret-form' },
    h('label', { for: name.id }, t('secretName')),
    name,
    h('label', { for: value.id }, t('secretValue')),
    value,
    h('button', { type: 'submit' }, t('addSecret')),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void actions.add(name.value, value.value).then((problem) => {
      if (problem) error.textContent = problem;
      else refresh();
    });
  });
  const names = actions.names();
  return h(
    'section',
    { className: 'settings-group', 'aria-labelledby': 'secrets-heading' },
    h('h3', { id: 'secrets-heading' }, t('secretValues')),
    h('p', { className: 'hint' }, t('secretValuesHint')),
    form,
    h(
      'ul',
      { 'aria-label': t('secretValues') },
      ...names.map((secret) =>
        h(
          'li',
          {},
          h('span', {}, `${secret} — ••••••`),
          h(
            'button',
            {
              type: 'button',
              'aria-label': t('removeSecret', secret),
              onclick: () => void actions.remove(secret).then(refresh),
            },
            '✕',
          ),
        ),
      ),
    ),
  );
}
