/**
 * Settings → Room: how messages reach several agents (only the @mentioned ones, or everyone) and
 * how many agent-to-agent relays in a row the loop guard allows before it pauses them.
 */
import type { Settings } from '../../shared/settings';
import { boundedNumberInput, h } from '../dom';
import { t } from '../i18n';

export interface RoomSettingsActions {
  settings(): Settings;
  save(change: Partial<Pick<Settings, 'roomMode' | 'loopGuardCap'>>): Promise<void>;
}

export function roomSettingsSection(actions: RoomSettingsActions): HTMLElement {
  const settings = actions.settings();
  const mode = (value: Settings['roomMode'], label: string, hint: string) => {
    const input = h('input', {
      type: 'radio',
      name: 'room-mode',
      id: `room-mode-${value}`,
      value,
      checked: settings.roomMode === value,
      'aria-describedby': `room-mode-${value}-hint`,
    });
    input.addEventListener('change', () => {
      if (input.checked) void actions.save({ roomMode: value });
    });
    return h(
      'div',
      { className: 'field checkbox' },
      input,
      h('label', { for: input.id }, label),
      h('p', { className: 'hint', id: `room-mode-${value}-hint` }, hint),
    );
  };
  const cap = boundedNumberInput({
    id: 'loop-guard',
    min: 1,
    max: 100,
    current: () => actions.settings().loopGuardCap,
    save: (value) => void actions.save({ loopGuardCap: value }),
  });
  return h(
    'section',
    { className: 'settings-group', 'aria-labelledby': 'room-heading' },
    h('h3', { id: 'room-heading' }, t('roomHeading')),
    h(
      'fieldset',
      {},
      h('legend', {}, t('roomMode')),
      mode('mention', t('roomModeMention'), t('roomModeMentionHint')),
      mode('ambient', t('roomModeAmbient'), t('roomModeAmbientHint')),
    ),
    h(
      'div',
      { className: 'field' },
      h('label', { for: cap.id }, t('loopGuard')),
      cap,
      h('p', { className: 'hint' }, t('loopGuardHint')),
    ),
  );
}
