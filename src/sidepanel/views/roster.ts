/**
 * One chip per agent with its connection and browser state in words (never colour alone).
 * Clicking an unhealthy chip reconnects it; clicking a healthy one opens its details (session,
 * mode, context used, commands) with disconnect and edit; clicking one that needs signing in opens
 * its sign-in methods. Chips are updated in place, so a status
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
  needs_signin: () => t('statusNeedsSignIn'),
  refused: () => t('statusRefused'),
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

/** Chips whose click opens details rather than reconnecting. */
function opensDetails(status: ConnectionStatus): boolean {
  return isHealthy(status) || status === 'needs_signin';
}

/** The chip's accessible name: "<name>: <status>, <browser>" first, then activity. */
export function chipName(view: AgentView, actMode: boolean): string {
  const parts = [`${view.profile.name}: ${statusText(view.status)}`, browserBadge(view, actMode)];
  if (view.busy) parts.push(t('replying'));
  if (view.pending) parts.push(t('queuedCount', String(view.pending)));
  return `${parts.join(', ')}${opensDetails(view.status) ? '' : `. ${t('reconnect')}`}`;
}

export interface RosterActions {
  reconnect(agentId: string): void;
  disconnect(agentId: string): void;
  edit(agentId: string): void;
  signIn(agentId: string, methodId: string): void;
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
    const healthy = opensDetails(view.status);
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
    if (!opensDetails(view.status)) {
      this.actions.reconnect(agentId);
      return;
    }
    this.#expanded = this.#expanded === agentId ? undefined : agentId;
    this.render(this.#views, this.#actMode);
  }

  /** Each sign-in method in words: what it is, what to run where, and the button that goes on. */
  #signInSection(view: AgentView): HTMLElement {
    const id = view.profile.id;
    const methods = view.signIn.map((option) =>
      h(
        'li',
        {},
        h('strong', {}, option.name),
        option.description ? h('p', {}, option.description) : null,
        option.instruction ? h('p', { className: 'sign-in-instruction' }, option.instruction) : null,
        option.command ? h('pre', {}, h('code', {}, option.command)) : null,
        h(
          'button',
          {
            type: 'button',
            onclick: () => (option.authenticates ? this.actions.signIn(id, option.id) : this.actions.reconnect(id)),
          },
          option.authenticates ? t('agentSignInWith', option.name) : t('agentSignInRetry', view.profile.name),
        ),
      ),
    );
    return h(
      'section',
      { className: 'sign-in', 'aria-label': t('agentSignInHeading', view.profile.name) },
      h('p', {}, t('agentSignInHeading', view.profile.name)),
      methods.length
        ? h('ul', {}, ...methods)
        : h(
            'p',
            {},
            t('agentSignInNoMethods'),
            ' ',
            h(
              'button',
              { type: 'button', onclick: () => this.actions.reconnect(id) },
              t('agentSignInRetry', view.profile.name),
            ),
          ),
    );
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
      ...(view.status === 'needs_signin' ? [this.#signInSection(view)] : []),
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
