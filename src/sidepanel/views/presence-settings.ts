/**
 * Settings → What you see while an agent works: the agents' tab groups, the outline on pages
 * during actions, and download reports (which need Chrome's permission, asked for on the click).
 */
import type { LockedSetting } from '../../shared/policy';
import type { Settings } from '../../shared/settings';
import { h } from '../dom';
import { t } from '../i18n';
import { rerender, toggle } from './settings';

export interface PresenceSettingsActions {
  settings(): Settings;
  setTabGroups(on: boolean): Promise<void>;
  setOutline(on: boolean): Promise<void>;
  /** Must start Chrome's permission request before any await: it needs the click's user gesture. */
  setReportDownloads(on: boolean): Promise<string | undefined>;
  /** The settings in force, the organisation's policy applied. */
  effective?(): Settings;
  locked?(setting: LockedSetting): boolean;
}

export function presenceSettingsSection(actions: PresenceSettingsActions): HTMLElement {
  const root = h('section', { className: 'settings-group', 'aria-labelledby': 'presence-heading' });
  const downloadsError = h('p', { className: 'field-error', role: 'alert', id: 'downloads-error' });
  const render = () =>
    rerender(root, () => {
      const settings = actions.settings();
      const inForce = actions.effective?.() ?? settings;
      return [
        h('h3', { id: 'presence-heading' }, t('presenceHeading')),
        toggle('agent-tab-groups', t('agentTabGroups'), t('agentTabGroupsHint'), settings.agentTabGroups, (on) => {
          void actions.setTabGroups(on).then(render);
        }),
        toggle('agent-outline', t('agentOutline'), t('agentOutlineHint'), settings.agentOutline, (on) => {
          void actions.setOutline(on).then(render);
        }),
        toggle(
          'report-downloads',
          t('reportDownloads'),
          t('reportDownloadsHint'),
          inForce.reportDownloads,
          (on) => {
            downloadsError.textContent = '';
            void actions.setReportDownloads(on).then((problem) => {
              render();
              downloadsError.textContent = problem ?? '';
            });
          },
          actions.locked?.('reportDownloads') ?? false,
        ),
        downloadsError,
      ];
    });
  render();
  return root;
}
