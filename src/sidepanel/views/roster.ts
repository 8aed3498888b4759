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
import type { HeldTab } from '../../presence/tab-sharing';
import { modeName, modelOption, usagePercent, type ConfigView } from '../session-state';

const STATUS_TEXT: Record<ConnectionStatus, () => string> = {
  connected: () => t('statusConnected'),
  connecting: () => t('statusConnecting'),
  unresponsive: () => t('statusUnresponsive'),
  auth_failed: () => t('statusAuthFailed'),
  not_admitted: () => t('statusNotAdmitted'),
  wrong_path: () => t('statusWrongPath'),
  not_broker: () => t('statusNotBroker'),
  rejected: () => t('statusRejected'),
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
  const mode = modeName(view.session);
  const model = modelOption(view.session)?.value;
  if (mode) parts.push(t('chipMode', mode));
  if (model) parts.push(t('chipModel', model));
  if (view.busy) parts.push(t('replying'));
  if (view.pending) parts.push(t('queuedCount', String(view.pending)));
  return `${parts.join(', ')}${opensDetails(view.status) ? '' : `. ${t('reconnect')}`}`;
}

export interface RosterActions {
  reconnect(agentId: string): void;
  disconnect(agentId: string): void;
  edit(agentId: string): void;
  signIn(agentId: string, methodId: string): void;
  setMode(agentId: string, modeId: string): void;
  setConfigOption(agentId: string, configId: string, value: string | boolean): void;
  endSession(agentId: string): void;
}

/** Each agent's tabs, listed in its details with a "Take back" control each. */
export interface RosterTabs {
  of(agentId: string): HeldTab[];
  takeBack(tabId: number): void;
  /** Whether the organisation's policy turns "Follow my current tab" off, whatever the agent's profile says. */
  followLocked?(): boolean;
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
    private readonly tabs?: RosterTabs,
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
        ...[modeName(view.session), modelOption(view.session)?.value]
          .filter((text): text is string => Boolean(text))
          .map((text) => h('span', { className: 'badge session-choice' }, text)),
        view.busy ? h('span', { className: 'badge activity' }, t('replying')) : null,
        view.pending ? h('span', { className: 'badge activity' }, t('queuedCount', String(view.pending))) : null,
      ].filter((node) => node !== null),
    );
  }

  /** Who has which tab changed, or a tab's title did: the open details show it. */
  refreshTabs(): void {
    if (this.#expanded) this.#renderDetails();
  }

  /** The agent's tabs and its MCP clients', each with its "Take back <title>" control. */
  #tabsSection(view: AgentView): HTMLElement[] {
    if (!this.tabs || !view.profile.browserAccess) return [];
    const { name } = view.profile;
    const held = this.tabs.of(view.profile.id);
    const takeBack = (tab: HeldTab) =>
      h(
        'button',
        {
          type: 'button',
          'data-control': `take-back-${tab.tabId}`,
          'aria-label': t('takeBackTab', tab.takeBack),
          onclick: () => this.tabs?.takeBack(tab.tabId),
        },
        t('takeBack'),
      );
    const section = h(
      'section',
      { className: 'agent-tabs', 'aria-label': t('agentTabsHeading', name) },
      h('p', {}, t('agentTabsHeading', name)),
      held.length
        ? h(
            'ul',
            {},
            ...held.map((tab) =>
              h(
                'li',
                {},
                h('span', { className: 'tab-title' }, tab.title),
                tab.client !== undefined ? h('span', { className: 'badge' }, tab.client ?? t('unnamedClient')) : null,
                takeBack(tab),
              ),
            ),
          )
        : h(
            'p',
            { className: 'muted' },
            view.profile.followCurrentTab && !this.tabs?.followLocked?.()
              ? t('agentFollowsFront', name)
              : t('agentNoTabs', name),
          ),
    );
    return [section];
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

  /**
   * Each sign-in method in words: what it is, what to run where, and the button that goes on. A
   * command is the agent's text, captioned as such; a method refused as unsafe says why and offers
   * nothing to press.
   */
  #signInSection(view: AgentView): HTMLElement {
    const id = view.profile.id;
    const methods = view.signIn.map((option) =>
      h(
        'li',
        {},
        h('strong', {}, option.name),
        option.description && !option.refused ? h('p', {}, option.description) : null,
        option.instruction
          ? h('p', { className: option.refused ? 'sign-in-refused' : 'sign-in-instruction' }, option.instruction)
          : null,
        option.command
          ? h(
              'figure',
              { className: 'sign-in-command' },
              h('figcaption', {}, t('agentSignInCommandFrom', view.profile.name)),
              h('pre', {}, h('code', {}, option.command)),
            )
          : null,
        option.refused
          ? null
          : h(
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

  /** A switch for the mode or one of the agent's options: a select, or a checkbox for an on/off one. */
  #control(key: string, label: string, option: ConfigView['control'], apply: (value: string | boolean) => void) {
    const id = `agent-control-${key}`;
    if (option?.type === 'boolean') {
      const box = h('input', { type: 'checkbox', id, 'data-control': key });
      box.checked = option.current;
      box.addEventListener('change', () => apply(box.checked));
      return h('label', { className: 'check', for: id }, box, h('span', {}, label));
    }
    if (option?.type !== 'select') return null;
    const select = h(
      'select',
      { id, 'data-control': key, 'aria-label': label },
      ...option.choices.map((choice) =>
        h('option', { value: choice.value, title: choice.description ?? undefined }, choice.name),
      ),
    );
    select.value = option.current;
    select.addEventListener('change', () => apply(select.value));
    return select;
  }

  #renderDetails(): void {
    const view = this.#views.find((candidate) => candidate.profile.id === this.#expanded);
    this.#details.hidden = !view;
    if (!view) return this.#details.replaceChildren();
    // The details are redrawn on every change: a switch the user is on keeps focus.
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.control;
    const session = view.session;
    const id = view.profile.id;
    const connected = view.status === 'connected' || view.status === 'unresponsive';
    const rows: Array<[string, string | Node]> = [[t('detailStatus'), view.detail ?? statusText(view.status)]];
    if (session.title) rows.push([t('detailSession'), session.title]);
    const modeSwitch =
      connected && session.modes.length
        ? this.#control(
            'mode',
            t('detailMode'),
            { type: 'select', current: session.modeId ?? '', choices: session.modes },
            (value) => this.actions.setMode(id, String(value)),
          )
        : null;
    if (modeSwitch) rows.push([t('detailMode'), modeSwitch]);
    else if (session.modeId) rows.push([t('detailMode'), modeName(session) ?? session.modeId]);
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
    for (const option of session.config) {
      const control = connected
        ? this.#control(`config-${option.id}`, option.name, option.control, (value) =>
            this.actions.setConfigOption(id, option.id, value),
          )
        : null;
      rows.push([option.name, control ?? option.value]);
    }
    if (session.commands.length) rows.push([t('commands'), session.commands.map((c) => `/${c.name}`).join(' ')]);
    this.#details.setAttribute('aria-label', t('agentDetails', view.profile.name));
    this.#details.replaceChildren(
      h('dl', {}, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      ...(view.status === 'needs_signin' ? [this.#signInSection(view)] : []),
      ...this.#tabsSection(view),
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'button', onclick: () => this.actions.edit(id) }, t('editAgent', view.profile.name)),
        connected
          ? h(
              'button',
              { type: 'button', onclick: () => this.actions.endSession(id) },
              t('endSession', view.profile.name),
            )
          : null,
        h(
          'button',
          { type: 'button', className: 'danger', onclick: () => this.actions.disconnect(id) },
          t('disconnectAgent', view.profile.name),
        ),
      ),
    );
    if (focused) {
      const controls = this.#details.querySelectorAll<HTMLElement>('[data-control]');
      [...controls].find((control) => control.dataset.control === focused)?.focus();
    }
  }
}
