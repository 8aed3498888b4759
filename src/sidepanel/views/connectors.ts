/**
 * Settings → Connectors: each connector with its switch, status in words, sites and health check,
 * plus recipe import (paste or file) with the document's problems listed. Also the sign-in prompt
 * shown when a connector finds the user signed out.
 */
import { describeStatus } from './connector-status';
import type { ConnectorHub } from '../../connectors/hub';
import type { Connector } from '../../connectors/sdk';
import { h } from '../dom';
import { t } from '../i18n';
import './connectors.css';

/** A connector nobody has turned on or given a site: its card is one line until the person opens it. */
export function connectorUnused(settings: { enabled: boolean; sites: readonly string[] }): boolean {
  return !settings.enabled && settings.sites.length === 0;
}

function connectorCard(
  hub: ConnectorHub,
  connector: Connector,
  opened: Set<string>,
  rerender: () => void,
): HTMLElement {
  const settings = hub.settingsOf(connector.id);
  const status = hub.health.status(connector.id);
  const id = `connector-${connector.id}`;
  const enable = h('input', { type: 'checkbox', id: `${id}-enabled`, checked: settings.enabled });
  enable.addEventListener('change', () => void hub.setEnabled(connector.id, enable.checked).then(rerender));

  const siteInput = h('input', {
    type: 'text',
    id: `${id}-site`,
    placeholder: connector.siteExample ?? 'https://example.com/',
    autocomplete: 'off',
  });
  const siteError = h('p', { className: 'field-error', role: 'alert', id: `${id}-site-error` });
  siteInput.setAttribute('aria-describedby', siteError.id);
  const siteForm = h(
    'form',
    { className: 'inline-form' },
    h('label', { for: siteInput.id }, t('connectorSite', connector.name)),
    siteInput,
    h('button', { type: 'submit' }, t('addConnectorSite', connector.name)),
    siteError,
  );
  siteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void hub.addSite(connector.id, siteInput.value).then((problem) => {
      if (problem) siteError.textContent = problem;
      else {
        siteInput.value = '';
        rerender();
      }
    });
  });

  const sites = h('ul', { 'aria-label': t('connectorSites', connector.name) });
  for (const site of settings.sites) {
    sites.append(
      h(
        'li',
        {},
        h('span', {}, site),
        h(
          'button',
          {
            type: 'button',
            'aria-label': t('removeConnectorSite', site, connector.name),
            onclick: () => void hub.removeSite(connector.id, site).then(rerender),
          },
          '✕',
        ),
      ),
    );
  }
  const site = hub.site(connector);
  const statusLine = h(
    'p',
    { className: `connector-status ${status.state}`, id: `${id}-status`, role: 'status' },
    t('connectorStatus', connector.name, describeStatus(status)),
  );
  if (status.state === 'signed-out' && status.signInUrl) {
    statusLine.append(
      ' ',
      h('a', { href: status.signInUrl, target: '_blank', rel: 'noopener' }, t('signInTo', connector.name)),
    );
  }
  const collapsed = connectorUnused(settings) && !opened.has(connector.id);
  const detailsId = `${id}-details`;
  const disclose = h(
    'button',
    {
      type: 'button',
      className: 'ghost disclose',
      'aria-expanded': String(!collapsed),
      'aria-controls': detailsId,
      onclick: () => {
        if (collapsed) opened.add(connector.id);
        else opened.delete(connector.id);
        rerender();
      },
    },
    t(collapsed ? 'showConnectorSetup' : 'hideConnectorSetup', connector.name),
  );
  return h(
    'article',
    { className: `connector${collapsed ? ' collapsed' : ''}`, 'aria-labelledby': `${id}-name` },
    h('h4', { id: `${id}-name` }, connector.name, ' ', h('span', { className: 'hint' }, `(${connector.id})`)),
    connector.summary ? h('p', { className: 'hint' }, connector.summary) : null,
    connector.kind === 'recipe'
      ? h('p', { className: 'hint recipe-label' }, connector.tested ? t('recipeTested') : t('recipeUntested'))
      : null,
    h(
      'div',
      { className: 'field checkbox' },
      enable,
      h('label', { for: enable.id }, t('enableConnector', connector.name)),
      connectorUnused(settings) ? disclose : null,
    ),
    h(
      'div',
      { id: detailsId, hidden: collapsed },
      statusLine,
      site ? null : h('p', { className: 'hint' }, t('connectorNeedsSite')),
      sites,
      siteForm,
      h(
        'div',
        { className: 'actions' },
        h(
          'button',
          { type: 'button', onclick: () => void hub.health.check(connector).then(rerender) },
          t('checkConnector', connector.name),
        ),
        connector.kind === 'recipe'
          ? h(
              'button',
              {
                type: 'button',
                className: 'danger',
                onclick: () => void hub.removeRecipe(connector.id).then(rerender),
              },
              t('removeRecipe', connector.name),
            )
          : null,
      ),
    ),
  );
}

function recipeImport(hub: ConnectorHub, rerender: () => void): HTMLElement {
  const text = h('textarea', { id: 'recipe-json', rows: 6, spellcheck: 'false' });
  const file = h('input', { type: 'file', id: 'recipe-file', accept: 'application/json,.json' });
  const problems = h('ul', { className: 'field-error', role: 'alert', 'aria-label': t('recipeProblems') });
  const importText = async (json: string) => {
    problems.replaceChildren();
    const result = await hub.importRecipe(json);
    if ('errors' in result) {
      problems.append(...result.errors.map((error) => h('li', {}, error)));
      return;
    }
    text.value = '';
    rerender();
  };
  file.addEventListener('change', () => {
    const picked = file.files?.[0];
    if (picked) void picked.text().then(importText);
  });
  const form = h(
    'form',
    { className: 'recipe-import' },
    h('label', { for: text.id }, t('recipeJson')),
    text,
    h('label', { for: file.id }, t('recipeFile')),
    file,
    h('button', { type: 'submit' }, t('importRecipe')),
    problems,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void importText(text.value);
  });
  return form;
}

/** `importAllowed`: false when an organisation's policy turned recipe import off. */
export function connectorsSection(hub: ConnectorHub, importAllowed: () => boolean = () => true): HTMLElement {
  const root = h('section', { className: 'settings-group connectors', 'aria-labelledby': 'connectors-heading' });
  // Cards the person opened stay open across the section's redraws.
  const opened = new Set<string>();
  const render = () => {
    // Health checks re-render the section while the user may be typing: keep what they typed and
    // where they were.
    const typed = new Map(
      [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[type="text"], textarea')].map(
        (field) => [field.id, field.value],
      ),
    );
    const focused = root.contains(document.activeElement) ? document.activeElement?.id : undefined;
    root.replaceChildren(
      h('h3', { id: 'connectors-heading' }, t('connectorsHeading')),
      h('p', { className: 'hint' }, t('connectorsHint')),
      ...hub.all().map((connector) => connectorCard(hub, connector, opened, render)),
      h('h4', {}, t('importRecipeHeading')),
      importAllowed() ? recipeImport(hub, render) : h('p', { className: 'hint' }, t('setByOrganisation')),
    );
    for (const [id, value] of typed) {
      const field = root.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${CSS.escape(id)}`);
      if (field && !field.value) field.value = value;
    }
    if (focused) root.querySelector<HTMLElement>(`#${CSS.escape(focused)}`)?.focus();
  };
  render();
  const unsubscribe = hub.onChange(() => {
    if (!root.isConnected) return unsubscribe();
    render();
  });
  return root;
}

/** One prompt per connector: the site signed the user out; a link opens its sign-in page. */
export function showSignInPrompt(root: HTMLElement, connector: Connector, url: string): void {
  const id = `sign-in-${connector.id}`;
  root.querySelector(`#${id}`)?.remove();
  const headingId = `${id}-heading`;
  const card = h(
    'section',
    { className: 'prompt sign-in', id, role: 'alertdialog', 'aria-labelledby': headingId },
    h('h3', { id: headingId }, t('signInHeading', connector.name)),
    h('p', {}, t('signInBody', connector.name)),
    h(
      'div',
      { className: 'actions' },
      h(
        'a',
        { href: url, target: '_blank', rel: 'noopener', className: 'button primary' },
        t('signInTo', connector.name),
      ),
      h('button', { type: 'button', onclick: () => card.remove() }, t('dismiss')),
    ),
  );
  root.append(card);
}
