/**
 * While "Disconnect all" holds, a banner says so and offers to reconnect each agent explicitly.
 * It stays across panel reloads because the switch does (see `persistKillSwitch`).
 */
import type { KillSwitch } from '../../mcp-server/gates/kill-switch';
import { h } from '../dom';
import { t } from '../i18n';
import './gates.css';

export interface KillSwitchBannerOptions {
  killSwitch: KillSwitch;
  agents(): Array<{ id: string; name: string }>;
  reconnect(agentId: string): void;
}

export function killSwitchBanner(options: KillSwitchBannerOptions): HTMLElement {
  const banner = h('div', { className: 'kill-switch-banner', role: 'status', 'aria-live': 'polite' });
  const render = () => {
    if (!options.killSwitch.engaged) {
      banner.hidden = true;
      banner.replaceChildren();
      return;
    }
    banner.hidden = false;
    banner.replaceChildren(
      h('p', {}, h('strong', {}, t('killSwitchEngaged')), ' ', t('killSwitchHint')),
      h(
        'div',
        { className: 'actions' },
        ...options
          .agents()
          .map((agent) =>
            h(
              'button',
              { type: 'button', onclick: () => options.reconnect(agent.id) },
              t('reconnectAgent', agent.name),
            ),
          ),
      ),
    );
  };
  options.killSwitch.onChange(render);
  render();
  return banner;
}
