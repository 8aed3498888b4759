/**
 * The high-risk blocklist in Settings: the shipped entries by category, the user's own entries,
 * and the ways to change it (block a site, remove an entry, restore the shipped entries). A blocked
 * site is refused even when it is on the allowed list.
 */
import type { BlockCategory, BlockEntry } from '../../shared/block-entry';
import { h } from '../dom';
import { t } from '../i18n';

export interface BlocklistActions {
  entries(): readonly BlockEntry[];
  /** How many shipped entries the user removed. */
  removedCount(): number;
  /** Returns a problem to show, or undefined when added. */
  add(rule: string): Promise<string | undefined>;
  remove(id: string): Promise<void>;
  restoreDefaults(): Promise<void>;
}

const CATEGORY_KEYS: Record<BlockCategory, Parameters<typeof t>[0]> = {
  banking: 'blockBanking',
  payments: 'blockPayments',
  'cloud-console': 'blockCloud',
  'password-manager': 'blockPasswords',
  identity: 'blockIdentity',
  'account-settings': 'blockAccounts',
  custom: 'blockCustom',
};

export function blocklistSection(actions: BlocklistActions, refresh: () => void): HTMLElement {
  const input = h('input', {
    type: 'text',
    id: 'block-input',
    placeholder: 'bank.example/settings',
    autocomplete: 'off',
  });
  const error = h('p', { className: 'field-error', role: 'alert', id: 'block-error' });
  input.setAttribute('aria-describedby', error.id);
  const form = h(
    'form',
    { className: 'inline-form' },
    h('label', { for: input.id }, t('siteToBlock')),
    input,
    h('button', { type: 'submit' }, t('blockSite')),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void actions.add(input.value).then((problem) => {
      if (problem) error.textContent = problem;
      else refresh();
    });
  });

  const entries = actions.entries();
  const groups = new Map<BlockCategory, BlockEntry[]>();
  for (const entry of entries) groups.set(entry.category, [...(groups.get(entry.category) ?? []), entry]);
  const lists = [...groups].map(([category, inCategory]) =>
    h(
      'details',
      { className: 'block-group', open: category === 'custom' },
      h('summary', {}, `${t(CATEGORY_KEYS[category])} (${inCategory.length})`),
      h(
        'ul',
        { 'aria-label': t(CATEGORY_KEYS[category]) },
        ...inCategory.map((entry) =>
          h(
            'li',
            { 'data-entry': entry.id },
            h('span', { className: 'block-name' }, entry.name),
            entry.match.join(', ') === entry.name
              ? null
              : h('span', { className: 'block-rules' }, entry.match.join(', ')),
            h(
              'button',
              {
                type: 'button',
                'aria-label': t('unblock', entry.name),
                onclick: () => void actions.remove(entry.id).then(refresh),
              },
              '✕',
            ),
          ),
        ),
      ),
    ),
  );
  const removed = actions.removedCount();
  return h(
    'section',
    { className: 'settings-group blocklist', 'aria-labelledby': 'blocklist-heading' },
    h('h3', { id: 'blocklist-heading' }, t('blocklist')),
    h('p', { className: 'hint' }, t('blocklistHint', String(entries.length))),
    form,
    h('div', { role: 'group', 'aria-label': t('blocklist') }, ...lists),
    h(
      'p',
      {},
      h(
        'button',
        { type: 'button', disabled: removed === 0, onclick: () => void actions.restoreDefaults().then(refresh) },
        t('restoreDefaults'),
      ),
      removed ? ` ${t('removedDefaults', String(removed))}` : '',
    ),
  );
}
