/**
 * Settings → Page tools: for each allowed site, whether the tools its pages declare (WebMCP) are
 * offered to agents as the server `page.<site>`. Off for every site until the user turns it on.
 */
import type { Settings } from '../../shared/settings';
import { pageServerName } from '../../webmcp/page-tools';
import { h } from '../dom';
import { t } from '../i18n';

export interface PageToolsActions {
  settings(): Settings;
  setOffered(origin: string, on: boolean): Promise<void>;
  /** The settings in force, the organisation's policy applied. */
  effective?(): Settings;
  /** Whether the organisation's policy turns page tools off. */
  locked?(): boolean;
}

export function pageToolsSection(actions: PageToolsActions): HTMLElement {
  const settings = actions.settings();
  const inForce = actions.effective?.() ?? settings;
  const locked = actions.locked?.() ?? false;
  const list = h('ul', { 'aria-label': t('pageToolsSites'), className: 'site-list page-tool-sites' });
  settings.allowedSites.forEach((origin, index) => {
    const id = `page-tools-${index}`;
    const input = h('input', {
      type: 'checkbox',
      id,
      checked: inForce.pageToolSites.includes(origin),
      disabled: locked,
      'aria-describedby': `${id}-server`,
    });
    input.addEventListener('change', () => void actions.setOffered(origin, input.checked));
    list.append(
      h(
        'li',
        { className: 'field checkbox' },
        input,
        h('label', { for: id }, t('pageToolsOffer', origin)),
        h('p', { className: 'hint', id: `${id}-server` }, t('pageToolsServer', pageServerName(origin))),
      ),
    );
  });
  if (!settings.allowedSites.length) list.append(h('li', { className: 'empty' }, t('noAllowedSites')));
  return h(
    'section',
    { className: 'settings-group page-tools', 'aria-labelledby': 'page-tools-heading' },
    h('h3', { id: 'page-tools-heading' }, t('pageToolsHeading')),
    h(
      'p',
      { className: 'hint', id: 'page-tools-hint' },
      locked ? `${t('setByOrganisation')} ${t('pageToolsHint')}` : t('pageToolsHint'),
    ),
    list,
  );
}
