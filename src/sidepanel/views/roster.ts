/** One chip per agent, with its connection and browser state in words (not colour alone). */
import type { ConnectionStatus } from '../../acp/agent-connection';
import type { AgentView } from '../agent-hub';
import { clear, h } from '../dom';
import { t } from '../i18n';

const STATUS_TEXT: Record<ConnectionStatus, () => string> = {
  connected: () => t('statusConnected'),
  connecting: () => t('statusConnecting'),
  unresponsive: () => t('statusUnresponsive'),
  auth_failed: () => t('statusAuthFailed'),
  unreachable: () => t('statusUnreachable'),
  disabled: () => t('statusDisabled'),
};

export function browserBadge(view: AgentView, actMode: boolean): string {
  if (!view.profile.browserAccess) return t('browserOff');
  if (view.status !== 'connected' && view.status !== 'unresponsive') return t('browserNotAttached');
  return actMode ? t('browserCanAct') : t('browserReadOnly');
}

export function renderRoster(
  root: HTMLElement,
  views: AgentView[],
  actMode: boolean,
  onReconnect: (agentId: string) => void,
): void {
  clear(root);
  for (const view of views) {
    const healthy = view.status === 'connected' || view.status === 'connecting';
    const status = STATUS_TEXT[view.status]();
    const chip = h(
      'button',
      {
        type: 'button',
        className: `chip status-${view.status}`,
        title: view.detail ?? status,
        'aria-label': `${view.profile.name}: ${status}, ${browserBadge(view, actMode)}${healthy ? '' : `. ${t('reconnect')}`}`,
        'aria-disabled': healthy ? 'true' : undefined,
        onclick: () => {
          if (!healthy) onReconnect(view.profile.id);
        },
      },
      h('span', { className: 'chip-name' }, view.profile.name),
      h('span', { className: 'badge connection', 'data-status': view.status }, status),
      h('span', { className: 'badge browser' }, browserBadge(view, actMode)),
    );
    root.append(chip);
  }
}
