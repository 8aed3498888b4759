/**
 * The other parts of an agent's reply: plans, permission requests, compaction, sub-agents and
 * messages from other sessions. Each is built from a segment; an update builds it again.
 */
import type { SegmentOf } from '../chat-types';
import { h } from '../dom';
import { t } from '../i18n';
import { renderMarkdown } from '../markdown/engine';
import { openableHref } from '../markdown/sanitize';
import { showInvisible } from '../../shared/text/invisible';
import { icon } from './icons';
import { toolContent } from './tool-card';

const ENTRY_STATUS = {
  pending: { mark: '○', text: () => t('planPending') },
  in_progress: { mark: '◐', text: () => t('planInProgress') },
  completed: { mark: '●', text: () => t('planDone') },
} as const;

export function planCard(segment: SegmentOf<'plan'>): HTMLElement {
  const done = segment.entries.filter((entry) => entry.status === 'completed').length;
  // Open by default: a plan is worth seeing; it folds away like every other card.
  const card = h(
    'details',
    { className: 'card plan', open: true },
    h(
      'summary',
      {},
      icon('plan'),
      h('span', { className: 'card-title' }, t('plan')),
      segment.entries.length
        ? h('span', { className: 'card-status' }, t('planProgress', String(done), String(segment.entries.length)))
        : null,
    ),
  );
  if (segment.entries.length) {
    card.append(
      h(
        'ol',
        {},
        ...segment.entries.map((entry) => {
          const status = ENTRY_STATUS[entry.status] ?? ENTRY_STATUS.pending;
          return h(
            'li',
            { className: `entry status-${entry.status}` },
            h('span', { className: 'mark', 'aria-hidden': 'true' }, status.mark),
            h('span', { className: 'entry-text' }, entry.content),
            h('span', { className: 'sr-only' }, ` (${status.text()})`),
            entry.priority === 'high' ? h('span', { className: 'badge-high' }, t('planHighPriority')) : null,
          );
        }),
      ),
    );
  }
  if (segment.markdown) card.append(h('div', { className: 'markdown' }, renderMarkdown(segment.markdown)));
  if (segment.uri) {
    const url = openableHref(segment.uri);
    card.append(
      h(
        'p',
        {},
        url
          ? h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer' }, segment.uri)
          : h('span', { className: 'refused-link' }, segment.uri),
      ),
    );
  }
  return card;
}

export interface PermissionHandlers {
  awaiting: boolean;
  answer(optionId: string): void;
}

/**
 * A request from the agent, answered in place: what the agent says it wants to do (its words, the
 * tool's kind and name, any diff), then one button per option, named by the option. Only "allow
 * once" looks like the main action; the card itself, not an allow button, takes the focus.
 */
export function permissionCard(agentName: string, segment: SegmentOf<'permission'>, handlers: PermissionHandlers) {
  const headingId = `${segment.id}-heading`;
  const card = h(
    'section',
    {
      className: `card permission${handlers.awaiting ? ' awaiting' : ''}`,
      role: 'group',
      tabindex: -1,
      'aria-labelledby': headingId,
      'data-permission': segment.id,
    },
    h(
      'h4',
      { id: headingId },
      icon('alert'),
      h('span', {}, t('permissionHeading', agentName, showInvisible(segment.title))),
    ),
  );
  const tool = [segment.toolKind, segment.toolName].filter(Boolean).map((part) => showInvisible(part!));
  if (tool.length) card.append(h('p', { className: 'permission-tool muted' }, t('permissionTool', tool.join(' · '))));
  for (const content of segment.content ?? []) card.append(toolContent(content));
  if (segment.input) {
    card.append(h('details', {}, h('summary', {}, t('toolArguments')), h('pre', {}, segment.input)));
  }
  if (handlers.awaiting) {
    const primary = segment.options.find((option) => option.kind === 'allow_once');
    card.append(
      h(
        'div',
        { className: 'actions' },
        ...segment.options.map((option) =>
          h(
            'button',
            {
              type: 'button',
              className: option === primary ? 'primary' : option.kind.startsWith('reject') ? 'danger' : '',
              'data-option': option.optionId,
              onclick: () => handlers.answer(option.optionId),
            },
            option.name,
          ),
        ),
      ),
    );
  } else {
    const outcome = segment.outcome;
    const text = !outcome || 'cancelled' in outcome ? t('permissionCancelled') : t('permissionChosen', outcome.chosen);
    card.append(h('p', { className: 'outcome', role: 'status' }, text));
  }
  return card;
}

export function compactionCard(segment: SegmentOf<'compaction'>): HTMLElement {
  const title =
    segment.status === 'completed'
      ? t('compactionDone')
      : segment.status === 'failed'
        ? t('compactionFailed', segment.error ?? '')
        : segment.status === 'cancelled'
          ? t('compactionCancelled')
          : t('compactionRunning');
  return h(
    'details',
    { className: `card compaction status-${segment.status}` },
    h('summary', {}, icon('thought'), h('span', { className: 'card-title' }, title)),
    segment.summary
      ? h('div', { className: 'card-body markdown' }, renderMarkdown(segment.summary))
      : h('p', { className: 'card-body muted' }, t('compactionNoSummary')),
  );
}

export function subagentCard(segment: SegmentOf<'subagent'>): HTMLElement {
  return h(
    'section',
    { className: 'card subagent' },
    h(
      'h4',
      {},
      icon('plug'),
      h('span', { className: 'card-title' }, t('subagent', segment.title ?? segment.sessionId.slice(0, 8))),
      segment.state ? h('span', { className: 'card-status' }, segment.state.replace('_', ' ')) : null,
    ),
    segment.description ? h('p', { className: 'muted' }, segment.description) : null,
  );
}

export function relayCard(segment: SegmentOf<'relay'>): HTMLElement {
  return h(
    'blockquote',
    { className: 'card relay' },
    h('p', { className: 'card-label' }, t('relayedMessage')),
    h('div', { className: 'markdown' }, renderMarkdown(segment.text)),
  );
}
