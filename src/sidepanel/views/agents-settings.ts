/**
 * Settings → Agents: each agent with its broker and state, edited in place or removed (after a
 * second, explicit click), and the form to add another. One element lives for the panel's life so
 * an edit in progress survives the rest of Settings re-rendering around it.
 */
import type { AgentProfile } from '../../shared/settings';
import type { CheckedAgent } from '../agent-input';
import { h } from '../dom';
import { t } from '../i18n';
import { agentEditor, agentForm, type NewAgent } from './agent-form';
import { icon } from './icons';

export interface AgentsSettingsActions {
  agents(): AgentProfile[];
  statusOf(agentId: string): string;
  hasToken(agentId: string): Promise<boolean>;
  defaultUrl: string;
  add(agent: NewAgent): Promise<void>;
  save(agentId: string, agent: CheckedAgent): Promise<void>;
  remove(agentId: string): Promise<void>;
  brokerRefusal?(url: string): string | undefined;
  /** Whether the organisation's policy turns "Follow my current tab" off. */
  followLocked?(): boolean;
}

export class AgentsSettings {
  readonly element: HTMLElement;
  readonly #list: HTMLElement;
  #editing: { id: string; form: HTMLFormElement } | undefined;
  #confirmingRemoval: string | undefined;

  constructor(private readonly actions: AgentsSettingsActions) {
    this.#list = h('ul', { className: 'agent-list', 'aria-label': t('agentsHeading') });
    this.element = h(
      'section',
      { className: 'agents-settings', 'aria-labelledby': 'agents-heading' },
      h('h3', { id: 'agents-heading', tabindex: -1 }, t('agentsHeading')),
      this.#list,
      h('h4', {}, t('addAnotherAgent')),
      agentForm({
        defaultUrl: actions.defaultUrl,
        takenNames: () => actions.agents().map((agent) => agent.name),
        ...(actions.brokerRefusal ? { brokerRefusal: actions.brokerRefusal } : {}),
        ...(actions.followLocked ? { followLocked: actions.followLocked } : {}),
        onSubmit: async (agent) => {
          await actions.add(agent);
          this.refresh();
        },
      }),
    );
    this.refresh();
  }

  /** Opens the editor for one agent (from the roster's "Edit" button). */
  async edit(agentId: string): Promise<void> {
    const profile = this.actions.agents().find((agent) => agent.id === agentId);
    if (!profile) return;
    const form = agentEditor({
      profile,
      hasToken: await this.actions.hasToken(agentId),
      takenNames: () => this.actions.agents().flatMap((agent) => (agent.id === agentId ? [] : [agent.name])),
      ...(this.actions.brokerRefusal ? { brokerRefusal: this.actions.brokerRefusal } : {}),
      ...(this.actions.followLocked ? { followLocked: this.actions.followLocked } : {}),
      onSave: async (agent) => {
        await this.actions.save(agentId, agent);
        this.#editing = undefined;
        this.refresh();
        this.#list.querySelector<HTMLButtonElement>(`[data-agent="${CSS.escape(agentId)}"] .edit`)?.focus();
      },
      onCancel: () => {
        this.#editing = undefined;
        this.refresh();
        this.#list.querySelector<HTMLButtonElement>(`[data-agent="${CSS.escape(agentId)}"] .edit`)?.focus();
      },
    });
    this.#editing = { id: agentId, form };
    this.refresh();
    form.querySelector('input')?.focus();
  }

  /** Re-reads agents and their states; an open editor is kept as it is. */
  refresh(): void {
    const agents = this.actions.agents();
    if (agents.length === 0) {
      this.#list.replaceChildren(h('li', { className: 'muted' }, t('noAgents')));
      return;
    }
    this.#list.replaceChildren(...agents.map((agent) => this.#row(agent)));
  }

  #row(agent: AgentProfile): HTMLElement {
    const editing = this.#editing?.id === agent.id;
    const confirming = this.#confirmingRemoval === agent.id;
    const row = h(
      'li',
      { className: `agent-row${agent.enabled ? '' : ' disabled'}`, 'data-agent': agent.id },
      h(
        'div',
        { className: 'agent-summary' },
        h('span', { className: 'agent-name' }, agent.name),
        h('span', { className: 'agent-url' }, agent.url),
        h('span', { className: 'agent-state' }, this.actions.statusOf(agent.id)),
      ),
      h(
        'div',
        { className: 'actions' },
        h(
          'button',
          {
            type: 'button',
            className: 'edit',
            'aria-expanded': String(editing),
            onclick: () => (editing ? this.#closeEditor() : void this.edit(agent.id)),
          },
          icon('edit'),
          h('span', {}, t('editAgent', agent.name)),
        ),
        confirming
          ? h(
              'span',
              { className: 'confirm-remove', role: 'group', 'aria-label': t('removeAgentQuestion', agent.name) },
              h('span', {}, t('removeAgentQuestion', agent.name)),
              h(
                'button',
                { type: 'button', className: 'danger', onclick: () => void this.#remove(agent.id) },
                t('removeAgentConfirm', agent.name),
              ),
              h('button', { type: 'button', onclick: () => this.#cancelRemoval(agent.id) }, t('cancel')),
            )
          : h(
              'button',
              { type: 'button', className: 'danger remove', onclick: () => this.#askRemoval(agent.id) },
              icon('clear'),
              h('span', {}, t('removeAgent', agent.name)),
            ),
      ),
    );
    if (editing) row.append(this.#editing!.form);
    return row;
  }

  #closeEditor(): void {
    this.#editing = undefined;
    this.refresh();
  }

  #askRemoval(agentId: string): void {
    this.#confirmingRemoval = agentId;
    this.refresh();
    this.#list
      .querySelector<HTMLButtonElement>(`[data-agent="${CSS.escape(agentId)}"] .confirm-remove .danger`)
      ?.focus();
  }

  #cancelRemoval(agentId: string): void {
    this.#confirmingRemoval = undefined;
    this.refresh();
    this.#list.querySelector<HTMLButtonElement>(`[data-agent="${CSS.escape(agentId)}"] .remove`)?.focus();
  }

  async #remove(agentId: string): Promise<void> {
    this.#confirmingRemoval = undefined;
    if (this.#editing?.id === agentId) this.#editing = undefined;
    await this.actions.remove(agentId);
    this.refresh();
    this.element.querySelector<HTMLElement>('h3')?.focus();
  }
}
