/**
 * "Forwarding to <collector>: N waiting, last sent <time>": the person sees that their organisation
 * receives a copy of the audit log, and whether it is getting through. Hidden when forwarding is off.
 */
import type { SendProblem } from '../../audit-forward/forwarder';
import type { ForwardStatus } from '../../audit-forward/status';
import type { CollectorProblem } from '../../audit-forward/target';
import type { ForwardStatusSource } from '../../platform/chrome-forward-status';
import { h } from '../dom';
import { t, type MessageKey } from '../i18n';

const COLLECTOR_PROBLEMS: Record<CollectorProblem, MessageKey> = {
  'not-url': 'forwardingCollectorNotUrl',
  credentials: 'forwardingCollectorCredentials',
  'plain-http': 'forwardingCollectorPlainHttp',
  scheme: 'forwardingCollectorScheme',
};

function sendProblemText(problem: SendProblem | string): string {
  if (typeof problem === 'string') return problem;
  if (problem.kind === 'unreachable') return t('forwardingCollectorUnreachable', problem.detail);
  return t('forwardingCollectorAnswered', `${problem.status}${problem.statusText ? ` ${problem.statusText}` : ''}`);
}

export function forwardingText(status: ForwardStatus): string {
  if (status.kind === 'off') return '';
  if (status.kind === 'refused') return t('forwardingRefused', t(COLLECTOR_PROBLEMS[status.reason], status.url));
  const lastSent =
    status.lastSentAt === undefined ? t('forwardingNeverSent') : new Date(status.lastSentAt).toLocaleString();
  const shown = t('forwardingTo', status.origin, String(status.waiting), lastSent);
  return status.lastError ? `${shown} ${t('forwardingFailing', sendProblemText(status.lastError))}` : shown;
}

export function forwardingStatusView(source: ForwardStatusSource): HTMLElement {
  const line = h('p', { className: 'hint forwarding-status', role: 'status', hidden: true });
  let mounted = false;
  const show = async () => {
    const status = await source.read();
    line.textContent = forwardingText(status);
    line.hidden = status.kind === 'off';
    line.classList.toggle('field-error', status.kind === 'refused' || (status.kind === 'on' && !!status.lastError));
  };
  const stop = source.watch(() => {
    if (line.isConnected) mounted = true;
    else if (mounted) return stop();
    void show();
  });
  void show();
  return line;
}
