/**
 * One chip per agent with its connection and browser state in words (never colour alone).
 * Clicking an unhealthy chip reconnects it; clicking a healthy one opens its details (session,
 * mode, context used, commands) with disconnect and edit. Chips are updated in place, so a status
 * change never takes keyboard focus away.
 */
import type { ConnectionStatus } from '../../acp/agent-connection';
import type { AgentView } from '../agent-hub';
import { h } from '../dom';
import { t } from '../i18n';
import { usagePercent } from '../session-state';

const STATUS_TEXT: Record<ConnectionStatus, () => string> = {
  connected: () => t('statusConnected'),
  connecting: () => t('statusConnecting'),
  unresponsive: () => t('statusUnresponsive'),
  auth_failed: () => t('statusAuthFailed'),
  unreachable: () => t('statusUnreachable'),
  disabled: () => t('statusDisabled'),
};

export function statusText(status: ConnectionStatus): string {
  return STATUS_TEXT[status]();
}

export function browserBadge(view: AgentView, actMode: boolean): string {
  if (!view.profile.browserAccess) return t('browserOff');
  if (view.status !== 'connected' && view.status !== 'unresponsive') return t('browserNotAttached');
  return actMode ? t('browserCanAct') : t('browserReadOnly');
}

export function isHealthy(status: ConnectionStatus): boolean {
  return status === 'connected' || status === 'connecting';
}

/** The chip's accessible name: "<name>: <status>, <browser>" first, then activity. */
export function chipName(view: AgentView, actMode: boolean): string {
  const parts = [`${view.profile.name}: ${statusText(view.status)}`, browserBadge(view, actMode)];
  if (view.busy) parts.push(t('replying'));
  if (view.pending) parts.push(t('queuedCount', String(view.pending)));
  return `${parts.join(', ')}${isHealthy(view.status) ? '' : `. ${t('reconnect')}`}`;
}

export interface RosterActions {
  reconnect(agentId: string): void;
  disconnect(agentId: string): void;
  edit(agentId: string): void;
}

export class Roster {
  readonly #chips = new Map<string, HTMLButtonElement>();
  readonly #details: HTMLElement;
  #expanded: string | undefined;
  #views: AgentView[] = [];
  #actMode = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly actions: RosterActions,
  ) {
    this.#details = h('section', { className: 'agent-details', id: 'agent-details', hidden: true });
    root.after(this.#details);
  }

  render(views: AgentView[], actMode: boolean): void {
    this.#views = views;
    this.#actMode = actMode;
    const seen = new Set<string>();
    for (const [index, view] of views.entries()) {
      seen.add(view.profile.id);
      let chip = this.#chips.get(view.profile.id);
      if (!chip) {
        const id = view.profile.id;
        chip = h('button', { type: 'button', className: 'chip', onclick: () => this.#clicked(id) });
        this.#chips.set(id, chip);
      }
      this.#fill(chip, view);
      // Moving a node blurs it: only move chips that are out of place.
      if (this.root.children[index] !== chip) this.root.insertBefore(chip, this.root.children[index] ?? null);
    }
    for (const [id, chip] of this.#chips) {
      if (seen.has(id)) continue;
      chip.remove();
      this.#chips.delete(id);
    }
    if (this.#expanded && !seen.has(this.#expanded)) this.#expanded = undefined;
    this.#renderDetails();
  }

  #fill(chip: HTMLButtonElement, view: AgentView): void {
    const healthy = isHealthy(view.status);
    chip.className = `chip status-${view.status}${view.busy ? ' busy' : ''}`;
    chip.setAttribute('aria-label', chipName(view, this.#actMode));
    chip.title = view.detail ?? statusText(view.status);
    if (healthy) {
      chip.setAttribute('aria-expanded', String(this.#expanded === view.profile.id));
      chip.setAttribute('aria-controls', 'agent-details');
    } else {
      chip.removeAttribute('aria-expanded');
      chip.removeAttribute('aria-controls');
    }
    chip.replaceChildren(
      ...[
        h('span', { className: 'dot', 'aria-hidden': 'true' }),
        h('span', { className: 'chip-name' }, view.profile.name),
        h('span', { className: 'badge connection', 'data-status': view.status }, statusText(view.status)),
        h('span', { className: 'badge browser' }, browserBadge(view, this.#actMode)),
        view.busy ? h('span', { className: 'badge activity' }, t('replying')) : null,
        view.pending ? h('span', { className: 'badge activity' }, t('queuedCount', String(view.pending))) : null,
      ].filter((node) => node !== null),
    );
  }

  #clicked(agentId: string): void {
    const view = this.#views.find((candidate) => candidate.profile.id === agentId);
    if (!view) return;
    if (!isHealthy(view.status)) {
      this.actions.reconnect(agentId);
      return;
    }
    this.#expanded = this.#expanded === agentId ? undefined : agentId;
    this.render(this.#views, this.#actMode);
  }

  #renderDetails(): void {
    const view = this.#views.find((candidate) => candidate.profile.id === this.#expanded);
    this.#details.hidden = !view;
    if (!view) return this.#details.replaceChildren();
    const session = view.session;
    const rows: Array<[string, string]> = [[t('detailStatus'), view.detail ?? statusText(view.status)]];
    if (session.title) rows.push([t('detailSession'), session.title]);
    if (session.modeId) rows.push([t('detailMode'), session.modeId]);
    if (session.usage) {
      const cost = session.usage.cost
        ? ` · ${session.usage.cost.amount.toFixed(2)} ${session.usage.cost.currency}`
        : '';
      rows.push([
        t('detailContext'),
        t(
          'contextUsed',
          String(usagePercent(session.usage)),
          session.usage.used.toLocaleString(),
          session.usage.size.toLocaleString(),
        ) + cost,
      ]);
    }
    for (const option of session.config) rows.push([option.name, option.value]);
    if (session.commands.length) rows.push([t('commands'), session.commands.map((c) => `/${c.name}`).join(' ')]);
    const id = view.profile.id;
    this.#details.setAttribute('aria-label', t('agentDetails', view.profile.name));
    this.#details.replaceChildren(
      h('dl', {}, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'button', onclick: () => this.actions.edit(id) }, t('editAgent', view.profile.name)),
        h(
          'button',
          { type: 'button', className: 'danger', onclick: () => this.actions.disconnect(id) },
          t('disconnectAgent', view.profile.name),
        ),
      ),
    );
  }
}
