/**
 * The transcript: messages in order, user on the right and agents on the left, updated from the
 * chat model. Streamed text is rendered at most once per frame, and each frame spends a bounded
 * time on it (newest message first, so a restored history shows its end, the part on screen,
 * before the replies above it); the view follows new content while the user is at the bottom. Copy buttons are handled here for every message and code block.
 */
import type { ChatChange, ChatItem, ChatModel } from '../chat-model';
import { messageText } from '../chat-types';
import { h } from '../dom';
import { t } from '../i18n';
import type { StreamingMarkdown } from '../markdown/stream';
import { FrameScheduler } from './frame';
import { icon } from './icons';
import { firstControl } from './elicitation-card';
import { AgentMessageView, messageElement, type MessageContext } from './message-view';
import { StickToBottom } from './stick-to-bottom';

/**
 * Script time a frame may spend rendering message text before the rest waits for the next frame:
 * with style, layout and paint on top, a frame stays well under a 50 ms long task.
 */
export const FRAME_BUDGET_MS = 8;

export class TranscriptView {
  readonly element: HTMLElement;
  readonly #log: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #live: HTMLElement;
  readonly #nodes = new Map<string, HTMLElement>();
  readonly #agents = new Map<string, AgentMessageView>();
  readonly #dirty = new Set<StreamingMarkdown>();
  readonly #rendering = new Set<AgentMessageView>();
  readonly #frame: FrameScheduler;
  readonly #stick: StickToBottom;
  readonly #context: MessageContext;

  constructor(
    private readonly model: ChatModel,
    openUrl: (url: string) => Promise<void>,
  ) {
    this.#log = h('div', {
      className: 'transcript',
      id: 'transcript',
      role: 'log',
      // Streaming would make a screen reader repeat the reply chunk by chunk; finished replies are
      // announced once through the status region below instead.
      'aria-live': 'off',
      'aria-label': t('conversation'),
      tabindex: 0,
    });
    this.#empty = h('p', { className: 'empty-chat' }, t('emptyChat'));
    this.#live = h('div', { className: 'sr-only', role: 'status', 'aria-live': 'polite' });
    const jump = h(
      'button',
      { type: 'button', className: 'jump-latest', hidden: true },
      icon('down'),
      h('span', {}, t('jumpToLatest')),
    );
    this.element = h('div', { className: 'transcript-frame' }, this.#log, jump, this.#live);
    this.#stick = new StickToBottom(this.#log, jump);
    this.#frame = new FrameScheduler(() => this.#renderFrame());
    this.#context = {
      isQueued: (id) => model.isQueued(id),
      isAwaitingAnswer: (id) => model.isAwaitingAnswer(id),
      answer: (id, optionId) => {
        const card = this.#log.querySelector(`[data-permission="${CSS.escape(id)}"]`);
        const hadFocus = card?.contains(document.activeElement) ?? false;
        model.answerPermission(id, optionId);
        if (hadFocus) document.getElementById('composer-input')?.focus();
      },
      answerElicitation: (id, response) => {
        const card = this.#log.querySelector(`[data-elicitation="${CSS.escape(id)}"]`);
        const hadFocus = card?.contains(document.activeElement) ?? false;
        model.answerElicitation(id, response);
        if (hadFocus) document.getElementById('composer-input')?.focus();
      },
      openUrl,
      dirty: (renderer, message) => {
        this.#dirty.add(renderer);
        this.#rendering.add(message);
        this.#frame.request();
      },
    };
    this.#log.addEventListener('click', (event) => this.#onClick(event));
    // Off-screen parts of long replies are skipped only while the page can be seen: a hidden page
    // counts everything as off screen, and skipped text is missing from `innerText`.
    const visible = () =>
      document.documentElement.classList.toggle('page-visible', document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', visible);
    visible();
    this.#reset();
    model.subscribe((change) => this.#apply(change));
  }

  /** Scrolls to the newest message (after the user sends one). */
  pinToBottom(): void {
    this.#frame.run();
    this.#stick.pin();
  }

  /** Renders any pending streamed text now. */
  flush(): void {
    this.#frame.run();
  }

  announce(text: string): void {
    this.#live.textContent = text;
  }

  #renderFrame(): void {
    const started = performance.now();
    // Newest first; at least one slice per frame, then more only while the budget lasts.
    for (const renderer of [...this.#dirty].reverse()) {
      if (performance.now() - started >= FRAME_BUDGET_MS) break;
      renderer.flush();
      if (!renderer.dirty) this.#dirty.delete(renderer);
    }
    for (const message of this.#rendering) message.refreshBusy();
    if (this.#dirty.size === 0) this.#rendering.clear();
    // A burst of text renders a slice per frame until it is all shown.
    else this.#frame.request();
  }

  #reset(): void {
    this.#nodes.clear();
    this.#agents.clear();
    this.#dirty.clear();
    this.#rendering.clear();
    this.#stick.replace(this.#empty);
    for (const item of this.model.items) this.#append(item);
    this.#empty.hidden = this.model.items.length > 0;
    this.#stick.pin();
  }

  #append(item: ChatItem): void {
    const { element, agent } = messageElement(item, this.#context);
    this.#stick.append(element);
    this.#nodes.set(item.id, element);
    if (agent) this.#agents.set(item.id, agent);
    this.#empty.hidden = true;
  }

  #apply(change: ChatChange): void {
    switch (change.type) {
      case 'reset':
        this.#reset();
        return;
      case 'added':
        this.#append(change.item);
        if (change.item.kind === 'notice') this.announce(change.item.text);
        break;
      case 'text':
        this.#agents.get(change.item.id)?.text(change.segment.id, change.delta);
        return;
      case 'segment': {
        const agent = this.#agents.get(change.item.id);
        agent?.segment(change.segment);
        if (change.segment.kind === 'permission' && this.model.isAwaitingAnswer(change.segment.id)) {
          this.#askForPermission(change.item.agentName, change.segment.id, change.segment.title);
        }
        if (change.segment.kind === 'elicitation' && this.model.isAwaitingAnswer(change.segment.id)) {
          this.#bringToUser(t('elicitHeading', change.item.agentName), change.segment.id);
        }
        break;
      }
      case 'segment-removed':
        this.#agents.get(change.item.id)?.removeSegment(change.segment.id);
        break;
      case 'removed':
        this.#nodes.get(change.item.id)?.remove();
        this.#nodes.delete(change.item.id);
        this.#agents.delete(change.item.id);
        break;
      case 'updated': {
        const item = change.item;
        const agent = this.#agents.get(item.id);
        if (agent && item.kind === 'agent') {
          agent.update(item);
          if (item.done) this.#announceReply(item.agentName, item.error ?? messageText(item));
        } else {
          const { element } = messageElement(item, this.#context);
          this.#nodes.get(item.id)?.replaceWith(element);
          this.#nodes.set(item.id, element);
        }
        break;
      }
    }
    this.#frame.request();
  }

  #announceReply(agentName: string, text: string): void {
    const short = text.length > 400 ? `${text.slice(0, 400)}…` : text;
    this.announce(t('replyFinished', agentName, short));
  }

  /** Moves focus to a waiting request's first control (a permission's first option, a form's first field). */
  focusPermission(segmentId: string): void {
    this.#frame.run();
    this.#firstControl(segmentId)?.focus();
  }

  #firstControl(segmentId: string): HTMLElement | null {
    const id = CSS.escape(segmentId);
    const card = this.#log.querySelector(`[data-permission="${id}"], [data-elicitation="${id}"]`);
    return card ? firstControl(card) : null;
  }

  #askForPermission(agentName: string, segmentId: string, title: string): void {
    this.#bringToUser(t('permissionHeading', agentName, title), segmentId);
  }

  /** Brings a new request to the user: focus moves there unless they are typing. */
  #bringToUser(heading: string, segmentId: string): void {
    this.announce(heading);
    const composer = document.getElementById('composer-input') as HTMLTextAreaElement | null;
    const active = document.activeElement;
    const typing = active === composer && (composer?.value.trim() ?? '') !== '';
    const elsewhere = active && active !== document.body && active !== composer && !this.#log.contains(active);
    if (typing || elsewhere) return;
    this.#frame.run();
    this.#stick.pin();
    this.#firstControl(segmentId)?.focus();
  }

  async #onClick(event: MouseEvent): Promise<void> {
    const target = event.target as Element;
    const codeButton = target.closest<HTMLButtonElement>('.copy-code');
    const messageButton = target.closest<HTMLButtonElement>('.copy-message');
    const button = codeButton ?? messageButton;
    if (!button) return;
    let text = '';
    if (codeButton) text = codeButton.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    else {
      const id = button.closest<HTMLElement>('[data-id]')?.dataset.id;
      const item = this.model.items.find((candidate) => candidate.id === id);
      if (item?.kind === 'agent') text = messageText(item);
      else if (item?.kind === 'user') text = item.text;
    }
    try {
      await navigator.clipboard.writeText(text);
      flashCopied(button);
      this.announce(t('copied'));
    } catch {
      this.announce(t('copyFailed'));
    }
  }
}

function flashCopied(button: HTMLButtonElement): void {
  button.classList.add('copied');
  const label = button.getAttribute('aria-label');
  if (button.classList.contains('copy-code')) button.textContent = t('copied');
  setTimeout(() => {
    button.classList.remove('copied');
    if (button.classList.contains('copy-code')) button.textContent = t('copy');
    if (label) button.setAttribute('aria-label', label);
  }, 1_500);
}
