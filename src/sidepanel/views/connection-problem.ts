/**
 * Why an agent is not connected, said where the person looks: under the chips, one note per agent
 * that cannot connect, naming the cause the broker gave and what to do about it: the token, the
 * `--extension-id` to restart the broker with (with a Copy button), the path, the address. A note is
 * redrawn only when its cause changes, so the slow retries behind it never take focus away.
 */
import type { ConnectionStatus } from '../../acp/agent-connection';
import type { AgentView } from '../agent-hub';
import { messageWithCode } from '../code-text';
import { h } from '../dom';
import { t } from '../i18n';

export interface ProblemActions {
  edit(agentId: string): void;
  reconnect(agentId: string): void;
  copy(text: string): Promise<void>;
}

const PROBLEMS: ReadonlySet<ConnectionStatus> = new Set([
  'auth_failed',
  'not_admitted',
  'wrong_path',
  'not_broker',
  'rejected',
  'unreachable',
]);

/** Causes whose words already name the address. */
const NAMES_URL: ReadonlySet<ConnectionStatus> = new Set(['not_broker', 'rejected', 'unreachable']);

export const ACP_PATH = '/acp';

/** The command that restarts the local broker admitting this extension. */
export function admitCommand(extensionId: string): string {
  return `npm run broker -- --extension-id ${extensionId}`;
}

/** The broker URL with the path Tabwright's broker serves. */
export function withAcpPath(url: string): string {
  try {
    const fixed = new URL(url);
    fixed.pathname = ACP_PATH;
    fixed.search = '';
    fixed.hash = '';
    return fixed.href;
  } catch {
    return url;
  }
}

export class ConnectionProblems {
  readonly element = h('section', { className: 'connection-problems', 'aria-live': 'polite', hidden: true });
  readonly #notes = new Map<string, { key: string; note: HTMLElement }>();

  constructor(private readonly actions: ProblemActions) {}

  render(views: readonly AgentView[]): void {
    const shown = views.filter((view) => view.profile.enabled && PROBLEMS.has(view.status));
    const keep = new Set(shown.map((view) => view.profile.id));
    for (const [id, { note }] of this.#notes) {
      if (keep.has(id)) continue;
      note.remove();
      this.#notes.delete(id);
    }
    for (const view of shown) {
      const key = [view.status, view.profile.name, view.profile.url, view.extensionId ?? ''].join('\n');
      const known = this.#notes.get(view.profile.id);
      if (known?.key === key) continue;
      const note = this.#note(view);
      if (known) known.note.replaceWith(note);
      else this.element.append(note);
      this.#notes.set(view.profile.id, { key, note });
    }
    this.element.hidden = this.#notes.size === 0;
  }

  #note(view: AgentView): HTMLElement {
    const id = view.profile.id;
    const heading = t('problemHeading', view.profile.name);
    return h(
      'div',
      { className: `connection-problem status-${view.status}`, role: 'group', 'aria-label': heading },
      h(
        'p',
        { className: 'problem-heading' },
        h('strong', {}, heading),
        // The address once: in the heading unless the cause already says it.
        NAMES_URL.has(view.status) ? null : ` · ${view.profile.url}`,
      ),
      ...this.#cause(view),
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'button', onclick: () => this.actions.edit(id) }, t('editAgent', view.profile.name)),
        h('button', { type: 'button', onclick: () => this.actions.reconnect(id) }, t('reconnect')),
      ),
    );
  }

  #cause(view: AgentView): HTMLElement[] {
    const url = view.profile.url;
    switch (view.status) {
      case 'auth_failed':
        return [h('p', {}, t('problemWrongToken'))];
      case 'not_admitted':
        return [
          h('p', {}, t('problemNotAdmitted')),
          ...(view.extensionId ? [this.#command(admitCommand(view.extensionId))] : []),
        ];
      case 'wrong_path':
        return [h('p', {}, t('problemWrongPath', ACP_PATH, withAcpPath(url)))];
      case 'not_broker':
        return [h('p', {}, t('problemNotBroker', url))];
      case 'rejected':
        return [h('p', {}, t('problemRejected', url))];
      default:
        return [h('p', {}, ...messageWithCode('problemUnreachable', url, { code: 'npm run broker' }))];
    }
  }

  #command(command: string): HTMLElement {
    const copy = h('button', { type: 'button', className: 'copy-command' }, t('copy'));
    copy.setAttribute('aria-label', t('copyCommand'));
    copy.addEventListener('click', () => {
      this.actions.copy(command).then(
        () => (copy.textContent = t('copied')),
        () => (copy.textContent = t('copyFailed')),
      );
    });
    return h('div', { className: 'problem-command' }, h('pre', {}, h('code', {}, command)), copy);
  }
}
