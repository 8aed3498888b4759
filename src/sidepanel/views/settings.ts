/** Settings: act mode, allowed sites and agents. Changes apply to the next tool call. */
import { normaliseSite } from '../../mcp-server/gates/origin';
import type { Settings } from '../../shared/settings';
import { clear, h } from '../dom';
import { t } from '../i18n';

export interface SettingsActions {
  settings(): Settings;
  setActMode(on: boolean): Promise<void>;
  allowSite(origin: string): Promise<string | undefined>;
  removeSite(origin: string): Promise<void>;
  agentsSection(): HTMLElement;
  openAudit(): void;
}

export function settingsView(actions: SettingsActions): HTMLElement {
  const root = h('section', { className: 'settings', 'aria-labelledby': 'settings-heading' });
  const render = () => {
    const settings = actions.settings();
    clear(root);
    const act = h('input', { type: 'checkbox', id: 'act-mode', role: 'switch', checked: settings.actMode });
    act.addEventListener('change', () => void actions.setActMode(act.checked).then(render));
    const siteInput = h('input', {
      type: 'text',
      id: 'site-input',
      placeholder: 'https://example.com',
      autocomplete: 'off',
    });
    const siteError = h('p', { className: 'field-error', role: 'alert', id: 'site-error' });
    siteInput.setAttribute('aria-describedby', siteError.id);
    const siteForm = h(
      'form',
      { className: 'inline-form' },
      h('label', { for: siteInput.id }, t('siteToAllow')),
      siteInput,
      h('button', { type: 'submit' }, t('allowSite')),
      siteError,
    );
    siteForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const origin = normaliseSite(siteInput.value);
      if (!origin) {
        siteError.textContent = 'Enter a site like https://example.com (http or https only).';
        return;
      }
      void actions.allowSite(origin).then((problem) => {
        if (problem) siteError.textContent = problem;
        else render();
      });
    });
    const list = h('ul', { 'aria-label': t('allowedSites') });
    for (const origin of settings.allowedSites) {
      list.append(
        h(
          'li',
          {},
          h('span', {}, origin),
          h(
            'button',
            {
              type: 'button',
              'aria-label': t('removeSite', origin),
              onclick: () => void actions.removeSite(origin).then(render),
            },
            '✕',
          ),
        ),
      );
    }
    root.append(
      h('h2', { id: 'settings-heading' }, t('settings')),
      h(
        'div',
        { className: 'field checkbox' },
        act,
        h('label', { for: act.id }, t('actMode')),
        h('p', { className: 'hint' }, t('actModeHint')),
      ),
      h('h3', {}, t('allowedSites')),
      siteForm,
      list,
      actions.agentsSection(),
      h('button', { type: 'button', onclick: () => actions.openAudit() }, t('auditLog')),
    );
  };
  render();
  return root;
}
