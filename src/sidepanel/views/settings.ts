/**
 * Settings: act mode, screenshots, the confirmation timeout, allowed sites, the blocklist, secret
 * values, agents and what each is offered, and the way to the audit log. Every change is saved
 * at once and applies to the next tool call.
 */
import { normaliseSite } from '../../mcp-server/gates/origin';
import type { LockedSetting, ReadPolicy } from '../../shared/policy';
import type { Settings } from '../../shared/settings';
import { managedSection } from './managed-policy';
import { boundedNumberInput, h } from '../dom';
import { t } from '../i18n';
import { blocklistSection, type BlocklistActions } from './blocklist';
import { exposureSection, type ExposureActions } from './exposure';
import { secretsSection, type SecretActions } from './secrets';
import './gates.css';

export interface SettingsActions {
  settings(): Settings;
  setActMode(on: boolean): Promise<void>;
  /** Must start Chrome's permission request before any await: it needs the click's user gesture. */
  setScreenshots(on: boolean): Promise<string | undefined>;
  setConfirmationTimeout(seconds: number): Promise<void>;
  /** Same rule as setScreenshots: the permission request comes first. */
  allowSite(origin: string): Promise<string | undefined>;
  removeSite(origin: string): Promise<void>;
  /** Whether Chrome still holds the site's permission (it can be revoked from Chrome's own settings). */
  siteGranted(origin: string): Promise<boolean>;
  /** The blocklist entry name when the site is blocked, so the list can say it will be refused anyway. */
  siteBlockedBy(origin: string): string | undefined;
  blocklist: BlocklistActions;
  secrets: SecretActions;
  agentsSection(): HTMLElement;
  exposure: ExposureActions;
  openAudit(): void;
  /** Whether the organisation's policy sets this setting (shown locked, with the value in force). */
  locked?(setting: LockedSetting): boolean;
  /** The settings in force: the person's, narrowed by the policy. */
  effective?(): Settings;
  /** What the policy set, for the "Set by your organisation" section. */
  managed?(): ReadPolicy;
  /** Whether the audit log is forwarded to the organisation's collector, shown live. */
  forwardingStatus?(): HTMLElement;
  /** Calls `redraw` whenever the servers on offer change (a connector turned on); returns the way to stop. */
  watchOffers(redraw: () => void): () => void;
}

/** Re-renders `root` with `build`, putting focus back on the control that had it. */
export function rerender(root: HTMLElement, build: () => Node[]): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && root.contains(active) ? active.id || active.getAttribute('aria-label') || '' : '';
  root.replaceChildren(...build());
  if (!key) return;
  const again =
    root.querySelector<HTMLElement>(`#${CSS.escape(key)}`) ??
    [...root.querySelectorAll<HTMLElement>('[aria-label]')].find((el) => el.getAttribute('aria-label') === key);
  again?.focus();
}

/** A labelled on/off switch with its hint; a locked one shows the value in force and cannot be changed. */
export function toggle(
  id: string,
  label: string,
  hint: string,
  checked: boolean,
  onChange: (on: boolean) => void,
  locked = false,
) {
  const input = h('input', {
    type: 'checkbox',
    id,
    role: 'switch',
    checked,
    disabled: locked,
    'aria-describedby': `${id}-hint`,
  });
  if (locked) hint = `${t('setByOrganisation')} ${hint}`;
  input.addEventListener('change', () => onChange(input.checked));
  return h(
    'div',
    { className: 'field checkbox' },
    input,
    h('label', { for: id }, label),
    h('p', { className: 'hint', id: `${id}-hint` }, hint),
  );
}

function sitesSection(actions: SettingsActions, refresh: () => void): HTMLElement {
  const settings = actions.settings();
  const siteInput = h('input', {
    type: 'text',
    id: 'site-input',
    placeholder: 'https://example.com',
    autocomplete: 'off',
  });
  const siteError = h('p', { className: 'field-error', role: 'alert', id: 'site-error' });
  siteInput.setAttribute('aria-describedby', siteError.id);
  const form = h(
    'form',
    { className: 'inline-form' },
    h('label', { for: siteInput.id }, t('siteToAllow')),
    siteInput,
    h('button', { type: 'submit' }, t('allowSite')),
    siteError,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const origin = normaliseSite(siteInput.value);
    if (!origin) {
      siteError.textContent = t('siteInvalid');
      return;
    }
    void actions.allowSite(origin).then((problem) => {
      if (problem) siteError.textContent = problem;
      else refresh();
    });
  });
  const list = h('ul', { 'aria-label': t('allowedSites'), className: 'site-list' });
  for (const origin of settings.allowedSites) {
    const status = h('span', { className: 'site-status' });
    const blockedBy = actions.siteBlockedBy(origin);
    const outsidePolicy = actions.effective && !actions.effective().allowedSites.includes(origin);
    if (blockedBy) status.textContent = t('siteBlockedNote', blockedBy);
    else if (outsidePolicy) status.textContent = t('siteOutsidePolicy');
    else
      void actions.siteGranted(origin).then((granted) => {
        if (!granted) status.textContent = t('siteNotGranted');
      });
    list.append(
      h(
        'li',
        {},
        h('span', { className: 'site-origin' }, origin),
        status,
        h(
          'button',
          {
            type: 'button',
            'aria-label': t('removeSite', origin),
            onclick: () => void actions.removeSite(origin).then(refresh),
          },
          '✕',
        ),
      ),
    );
  }
  if (!settings.allowedSites.length) list.append(h('li', { className: 'empty' }, t('noAllowedSites')));
  return h(
    'section',
    { className: 'settings-group', 'aria-labelledby': 'sites-heading' },
    h('h3', { id: 'sites-heading' }, t('allowedSites')),
    h('p', { className: 'hint' }, t('allowedSitesHint')),
    form,
    list,
  );
}

function generalSection(actions: SettingsActions, render: () => void, screenshotError: HTMLElement): HTMLElement {
  const inForce = actions.effective?.() ?? actions.settings();
  const locked = (setting: LockedSetting) => actions.locked?.(setting) ?? false;
  const timeout = boundedNumberInput({
    id: 'confirm-timeout',
    min: 5,
    max: 3600,
    current: () => (actions.effective?.() ?? actions.settings()).confirmationTimeoutSec,
    save: (seconds) => void actions.setConfirmationTimeout(seconds),
  });
  timeout.disabled = locked('confirmationTimeoutSec');
  return h(
    'section',
    { className: 'settings-group', 'aria-labelledby': 'general-heading' },
    h('h3', { id: 'general-heading' }, t('settingsGeneral')),
    toggle(
      'act-mode',
      t('actMode'),
      t('actModeHint'),
      inForce.actMode,
      (on) => {
        void actions.setActMode(on).then(render);
      },
      locked('actMode'),
    ),
    toggle(
      'screenshots',
      t('screenshots'),
      t('screenshotsHint'),
      inForce.screenshots,
      (on) => {
        screenshotError.textContent = '';
        void actions.setScreenshots(on).then((problem) => {
          render();
          screenshotError.textContent = problem ?? '';
        });
      },
      locked('screenshots'),
    ),
    screenshotError,
    h(
      'div',
      { className: 'field' },
      h('label', { for: timeout.id }, t('confirmationTimeout')),
      timeout,
      h(
        'p',
        { className: 'hint' },
        locked('confirmationTimeoutSec')
          ? `${t('setByOrganisation')} ${t('confirmationTimeoutHint')}`
          : t('confirmationTimeoutHint'),
      ),
    ),
    h('button', { type: 'button', onclick: () => actions.openAudit() }, t('auditLog')),
  );
}

/** The gates' and agents' sections of Settings, redrawn together when one of them changes. */
export function settingsView(actions: SettingsActions): HTMLElement {
  const root = h('div', { className: 'settings-core' });
  const screenshotError = h('p', { className: 'field-error', role: 'alert', id: 'screenshots-error' });
  const render = () =>
    rerender(root, () => [
      ...[managedSection(actions.managed?.(), actions.forwardingStatus?.())].filter((node) => node !== null),
      generalSection(actions, render, screenshotError),
      sitesSection(actions, render),
      blocklistSection(actions.blocklist, render),
      secretsSection(actions.secrets, render),
      actions.agentsSection(),
      exposureSection(actions.exposure, render),
    ]);
  render();
  // Only the list of what agents are offered follows the servers: the rest may hold what the person is typing.
  const stop = actions.watchOffers(() => {
    if (!root.isConnected) return stop();
    const shown = root.querySelector('section[aria-labelledby="exposure-heading"]');
    shown?.replaceWith(exposureSection(actions.exposure, render));
  });
  return root;
}
