/**
 * One message in the transcript. An agent's reply keeps one view per segment, in order: streamed
 * text, thoughts and relayed messages render live through `StreamingMarkdown`; cards are rebuilt
 * when their segment changes (keeping whether the user opened them).
 */
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk/unstable';
import type { AgentItem, ChatItem, NoticeItem, Segment, UserItem } from '../chat-types';
import { h } from '../dom';
import { t } from '../i18n';
import { StreamingMarkdown } from '../markdown/stream';
import { compactionCard, permissionCard, planCard, subagentCard } from './cards';
import { fixCard } from './fix-card';
import { showInvisible } from '../../shared/text/invisible';
import { elicitationCard } from './elicitation-card';
import { icon } from './icons';
import { mediaView, toolCard } from './tool-card';

export interface MessageContext {
  /** Whether some agent has still to take this message of the user's. */
  isQueued(messageId: string): boolean;
  isAwaitingAnswer(segmentId: string): boolean;
  answer(segmentId: string, optionId: string): void;
  answerElicitation(segmentId: string, response: CreateElicitationResponse): void;
  openUrl(url: string): Promise<void>;
  /**
   * Shows a request waiting for the person's answer where the action cards are, outside the
   * scrolling conversation; `undefined` takes it down.
   */
  pin(segmentId: string, card: HTMLElement | undefined): void;
  /** The person pressed a fix the gates' refusal offered. */
  applyFix(segmentId: string): void;
  /** A text renderer of this message has rendering to do on the next frame. */
  dirty(renderer: StreamingMarkdown, message: AgentMessageView): void;
}

const STOP_REASONS: Record<string, () => string> = {
  cancelled: () => t('stopCancelled'),
  max_tokens: () => t('stopMaxTokens'),
  max_turn_requests: () => t('stopMaxTurns'),
  refusal: () => t('stopRefusal'),
};

// Formatters are made once: building one per message costs more than the message.
const SHORT_TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const FULL_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function timeOf(at: number): HTMLTimeElement {
  const date = new Date(at);
  return h('time', { datetime: date.toISOString(), title: FULL_TIME.format(date) }, SHORT_TIME.format(date));
}

function copyButton(label: string): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', className: 'icon-button copy-message', 'aria-label': label, title: label },
    icon('copy'),
  );
}

export function userMessage(item: UserItem, queued: boolean): HTMLElement {
  return h(
    'article',
    { className: `message user${queued ? ' queued' : ''}`, 'data-id': item.id, 'aria-label': t('messageFromYou') },
    h(
      'header',
      {},
      h('span', { className: 'who' }, item.replayedBy ? t('youVia', item.replayedBy) : t('you')),
      timeOf(item.at),
      queued ? h('span', { className: 'queued-badge' }, t('queued')) : null,
      copyButton(t('copyMessage')),
    ),
    h('div', { className: 'body' }, item.text),
  );
}

export function noticeMessage(item: NoticeItem): HTMLElement {
  return h(
    'div',
    { className: `notice severity-${item.severity}`, 'data-id': item.id },
    item.severity !== 'info' ? icon('alert') : null,
    item.severity !== 'info'
      ? h('span', { className: 'sr-only' }, `${t(item.severity === 'error' ? 'error' : 'warning')}: `)
      : null,
    h('span', {}, item.text),
    item.detail ? h('span', { className: 'notice-detail' }, item.detail) : null,
  );
}

type SegmentView = { element: HTMLElement; renderer?: StreamingMarkdown };

export class AgentMessageView {
  readonly element: HTMLElement;
  readonly #body: HTMLElement;
  readonly #state: HTMLElement;
  readonly #footer: HTMLElement;
  readonly #copy: HTMLButtonElement;
  readonly #segments = new Map<string, SegmentView>();
  #item: AgentItem;
  /** While the view is first built (a restored or finished message), its text waits for the frames. */
  #building = true;

  constructor(
    item: AgentItem,
    private readonly context: MessageContext,
  ) {
    this.#item = item;
    this.#body = h('div', { className: 'body' });
    // The state and the footer are in the message only while they have something to say: a long
    // conversation is mostly finished replies, and empty elements there add up.
    this.#state = h('span', { className: 'reply-state' });
    this.#footer = h('div', { className: 'reply-footer' });
    this.#copy = copyButton(t('copyMessage'));
    this.element = h(
      'article',
      {
        className: 'message agent',
        'data-id': item.id,
        'data-agent': item.agentId,
        'aria-label': t('messageFrom', item.agentName),
      },
      h('header', {}, h('span', { className: 'who' }, item.agentName), timeOf(item.at), this.#copy),
      this.#body,
    );
    for (const segment of item.segments) this.segment(segment, true);
    this.update(item);
    this.#building = false;
  }

  /** A segment was added or changed. `restored` renders streamed text as already final. */
  segment(segment: Segment, restored = false): void {
    const existing = this.#segments.get(segment.id);
    if (existing?.renderer) return;
    if (!existing) this.#finishStreams();
    const view = this.#build(segment);
    if (existing) {
      // The user's choice to open or fold a card survives its updates.
      if (existing.element instanceof HTMLDetailsElement && view.element instanceof HTMLDetailsElement) {
        view.element.open = existing.element.open;
      }
      existing.element.replaceWith(view.element);
    } else {
      this.#body.append(view.element);
    }
    this.#segments.set(segment.id, view);
    this.#body.classList.remove('empty');
    if (view.renderer) {
      view.renderer.append((segment as { text: string }).text);
      // Restored or finished text renders over the next frames, a slice at a time.
      if (restored || this.#item.done) view.renderer.end();
      this.context.dirty(view.renderer, this);
    }
  }

  /** Streamed text arrived for a segment. */
  text(segmentId: string, delta: string): void {
    const renderer = this.#segments.get(segmentId)?.renderer;
    if (!renderer) return;
    renderer.append(delta);
    this.context.dirty(renderer, this);
  }

  /** `aria-busy` while the reply streams or is still being rendered; assistive tech waits for it. */
  refreshBusy(): void {
    const busy = !this.#item.done || [...this.#segments.values()].some((view) => view.renderer?.dirty);
    if (this.element.getAttribute('aria-busy') !== String(busy)) this.element.setAttribute('aria-busy', String(busy));
  }

  removeSegment(segmentId: string): void {
    this.#segments.get(segmentId)?.element.remove();
    this.#segments.delete(segmentId);
  }

  /** Item-level state: replying, finished, stopped, failed. */
  update(item: AgentItem): void {
    this.#item = item;
    this.element.classList.toggle('done', item.done);
    this.element.classList.toggle('streaming', !item.done);
    this.element.classList.toggle('interrupted', !item.done && !!item.interrupted);
    if (item.done) this.#state.remove();
    else {
      this.#state.textContent = item.interrupted ? t('replyInterrupted') : t('replying');
      if (!this.#state.parentNode) this.#copy.before(this.#state);
    }
    if (item.done) this.#finishStreams();
    const reason = item.stopReason ? STOP_REASONS[item.stopReason]?.() : undefined;
    this.#footer.replaceChildren(
      ...(reason ? [h('p', { className: 'stop-reason' }, reason)] : []),
      ...(item.error ? [h('p', { className: 'error', role: 'alert' }, icon('alert'), h('span', {}, item.error))] : []),
    );
    this.#body.classList.toggle('empty', item.segments.length === 0);
    if (item.done && item.segments.length === 0 && !item.error && !reason) {
      this.#footer.append(h('p', { className: 'muted' }, t('emptyReply')));
    }
    if (!this.#footer.hasChildNodes()) this.#footer.remove();
    else if (!this.#footer.parentNode) this.element.append(this.#footer);
    this.refreshBusy();
  }

  /** Text above a new part of the reply is complete: it renders final (code highlighted). */
  #finishStreams(): void {
    for (const [, view] of this.#segments) {
      const renderer = view.renderer;
      if (!renderer || (renderer.ended && !renderer.dirty)) continue;
      renderer.end();
      // At once when what is left is small (the usual case), so a finished reply reads finished;
      // a long remainder goes on a slice per frame. A view being built renders in the frames only:
      // a restored history would otherwise render every message in one task.
      if (!this.#building) renderer.flush();
      if (renderer.dirty) this.context.dirty(renderer, this);
    }
    const thoughts = this.#body.querySelectorAll<HTMLElement>('.thought .card-title');
    for (const title of thoughts) title.textContent = t('thoughts');
  }

  #build(segment: Segment): SegmentView {
    switch (segment.kind) {
      case 'text': {
        const renderer = new StreamingMarkdown('markdown');
        return { element: renderer.element, renderer };
      }
      case 'thought': {
        const renderer = new StreamingMarkdown('markdown');
        const title = h('span', { className: 'card-title' }, this.#item.done ? t('thoughts') : t('thinking'));
        const element = h(
          'details',
          { className: 'card thought' },
          h('summary', {}, icon('thought'), title),
          renderer.element,
        );
        return { element, renderer };
      }
      case 'relay': {
        const renderer = new StreamingMarkdown('markdown');
        const element = h(
          'blockquote',
          { className: 'card relay' },
          h('p', { className: 'card-label' }, t('relayedMessage')),
          renderer.element,
        );
        return { element, renderer };
      }
      case 'tool':
        return { element: toolCard(segment.call) };
      case 'plan':
        return { element: planCard(segment) };
      case 'permission': {
        const awaiting = this.context.isAwaitingAnswer(segment.id);
        const card = permissionCard(this.#item.agentName, segment, {
          awaiting,
          answer: (optionId) => this.context.answer(segment.id, optionId),
        });
        // Waiting, it is pinned like an action's card, so scrolling the conversation never hides it.
        this.context.pin(segment.id, awaiting ? card : undefined);
        if (!awaiting) return { element: card };
        return {
          element: h(
            'p',
            { className: 'card permission-pinned muted' },
            t('permissionPinned', this.#item.agentName, showInvisible(segment.title)),
          ),
        };
      }
      case 'elicitation': {
        const awaiting = this.context.isAwaitingAnswer(segment.id);
        const card = elicitationCard(this.#item.agentName, segment, {
          awaiting,
          answer: (response) => this.context.answerElicitation(segment.id, response),
          openUrl: (url) => this.context.openUrl(url),
        });
        // Waiting, it is pinned as a permission request is: a long reply or a busy room never hides it.
        this.context.pin(segment.id, awaiting ? card : undefined);
        if (!awaiting) return { element: card };
        return {
          element: h('p', { className: 'card permission-pinned muted' }, t('elicitationPinned', this.#item.agentName)),
        };
      }
      case 'compaction':
        return { element: compactionCard(segment) };
      case 'subagent':
        return { element: subagentCard(segment) };
      case 'media':
        return { element: mediaView(segment.media, this.#item.agentName) };
      case 'fix':
        return { element: fixCard(this.#item.agentName, segment, { apply: () => this.context.applyFix(segment.id) }) };
    }
  }
}

export function messageElement(
  item: ChatItem,
  context: MessageContext,
): { element: HTMLElement; agent?: AgentMessageView } {
  if (item.kind === 'user') return { element: userMessage(item, context.isQueued(item.id)) };
  if (item.kind === 'notice') return { element: noticeMessage(item) };
  const agent = new AgentMessageView(item, context);
  return { element: agent.element, agent };
}
