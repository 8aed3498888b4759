/**
 * The transcript: messages in order, user on the right and agents on the left, updated from the
 * chat model. Streamed text is rendered at most once per frame, and each frame spends a bounded
 * time on it (newest message first, so a restored history shows its end, the part on screen,
 * before the replies above it); the view follows new content while the user is at the bottom.
 * Copy buttons are handled here for every message and code block.
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
  /** Requests waiting for an answer, pinned above the conversation (placed by the panel). */
  readonly pinned: HTMLElement;
  readonly #pins = new Map<string, HTMLElement>();
  readonly #log: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #live: HTMLElement;
  readonly #nodes = new Map<string, HTMLElement>();
  readonly #agents = new Map<string, AgentMessageView>();
  /** Renderers with text to render, each with its place in the newest-first order. */
  readonly #dirty = new Map<StreamingMarkdown, number>();
  readonly #rendering = new Set<AgentMessageView>();
  readonly #frame: FrameScheduler;
  readonly #stick: StickToBottom;
  readonly #context: MessageContext;
  /**
   * Restored items whose views are not built yet, oldest first. Building hundreds of messages at
   * once is a long task of its own, so they are built from the newest end, a frame's budget at a
   * time, each inserted above the ones built before it.
   */
  #unbuilt: ChatItem[] = [];
  /** Renderers marked dirty get rising numbers; those of older messages built later, falling ones. */
  #newest = 0;
  #oldest = 0;
  #order: number | undefined;

  constructor(
    private readonly model: ChatModel,
    openUrl: (url: string) => Promise<void>,
    applyFix: (segmentId: string) => void = () => undefined,
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
    this.#empty = h('p', { className: 'empty-chat' }, t('emptyChatNoAgent'));
    this.#live = h('div', { className: 'sr-only', role: 'status', 'aria-live': 'polite' });
    const jump = h(
      'button',
      { type: 'button', className: 'jump-latest', hidden: true },
      icon('down'),
      h('span', {}, t('jumpToLatest')),
    );
    this.element = h('div', { className: 'transcript-frame' }, this.#log, jump, this.#live);
    this.pinned = h('div', { className: 'pinned-requests' });
    this.#stick = new StickToBottom(this.#log, jump);
    this.#frame = new FrameScheduler(() => this.#renderFrame());
    this.#context = {
      isQueued: (id) => model.isQueued(id),
      isAwaitingAnswer: (id) => model.isAwaitingAnswer(id),
      answer: (id, optionId) => {
        const card = this.#pins.get(id) ?? this.#log.querySelector(`[data-permission="${CSS.escape(id)}"]`);
        const hadFocus = card?.contains(document.activeElement) ?? false;
        model.answerPermission(id, optionId);
        if (hadFocus) document.getElementById('composer-input')?.focus();
      },
      answerElicitation: (id, response) => {
        const card = this.#pins.get(id) ?? this.#log.querySelector(`[data-elicitation="${CSS.escape(id)}"]`);
        const hadFocus = card?.contains(document.activeElement) ?? false;
        model.answerElicitation(id, response);
        if (hadFocus) document.getElementById('composer-input')?.focus();
      },
      openUrl,
      pin: (id, card) => this.#pin(id, card),
      applyFix,
      dirty: (renderer, message) => {
        if (!this.#dirty.has(renderer)) this.#dirty.set(renderer, this.#order ?? ++this.#newest);
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

  #pin(segmentId: string, card: HTMLElement | undefined): void {
    const shown = this.#pins.get(segmentId);
    if (!card) {
      shown?.remove();
      this.#pins.delete(segmentId);
      return;
    }
    // Rebuilt in place: focus on the card stays on it.
    const hadFocus = shown?.contains(document.activeElement) ?? false;
    if (shown) shown.replaceWith(card);
    else this.pinned.append(card);
    this.#pins.set(segmentId, card);
    if (hadFocus) card.focus();
  }

  /** Scrolls to the newest message (after the user sends one). */
  pinToBottom(): void {
    this.#frame.run();
    this.#stick.pin();
  }

  /** What the empty chat says, for the agents set up now. */
  setEmptyText(text: string): void {
    if (this.#empty.textContent !== text) this.#empty.textContent = text;
  }

  /** Back on screen after Settings: the view where the person left it. */
  restoreScroll(): void {
    this.#stick.restore();
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
    this.#buildOlder(started);
    // Newest first; each slice gets what is left of the frame's budget, and at least one runs. A
    // streaming reply left without budget still shows its new text, as written.
    const order = [...this.#dirty].sort((a, b) => b[1] - a[1]).map(([renderer]) => renderer);
    for (const [index, renderer] of order.entries()) {
      const left = FRAME_BUDGET_MS - (performance.now() - started);
      if (left <= 0 && index > 0) {
        renderer.showArrived();
        continue;
      }
      renderer.flush(false, Math.max(left, 0));
      if (!renderer.dirty) this.#dirty.delete(renderer);
    }
    for (const message of this.#rendering) message.refreshBusy();
    if (this.#dirty.size === 0 && this.#unbuilt.length === 0) this.#rendering.clear();
    // A burst of text renders a slice per frame until it is all shown.
    else this.#frame.request(true);
  }

  #reset(): void {
    // A request still waiting stays answerable, whatever became of the conversation around it.
    for (const id of [...this.#pins.keys()]) if (!this.model.isAwaitingAnswer(id)) this.#pin(id, undefined);
    this.#nodes.clear();
    this.#agents.clear();
    this.#dirty.clear();
    this.#rendering.clear();
    this.#stick.replace(this.#empty);
    this.#unbuilt = [...this.model.items];
    this.#empty.hidden = this.model.items.length > 0;
    this.#buildOlder(performance.now());
    this.#stick.pin();
  }

  /**
   * Builds views of restored items, newest first, until half the frame's budget is spent (at
   * least one): the rest of the budget renders their text.
   */
  #buildOlder(started: number): void {
    if (this.#unbuilt.length === 0) {
      this.#log.removeAttribute('aria-busy');
      return;
    }
    do {
      const item = this.#unbuilt.pop()!;
      this.#order = --this.#oldest;
      try {
        const { element, agent } = messageElement(item, this.#context);
        this.#log.insertBefore(element, this.#empty.nextSibling);
        this.#nodes.set(item.id, element);
        if (agent) this.#agents.set(item.id, agent);
      } finally {
        this.#order = undefined;
      }
    } while (this.#unbuilt.length > 0 && performance.now() - started < FRAME_BUDGET_MS / 2);
    // The conversation reads as busy until every message is in it, as each reply does until rendered.
    this.#log.setAttribute('aria-busy', String(this.#unbuilt.length > 0));
    if (this.#unbuilt.length > 0) this.#frame.request();
  }

  /** A change to an item whose view is not built yet: the view is built later from the item as it is then. */
  #applyUnbuilt(change: ChatChange): boolean {
    if (this.#unbuilt.length === 0 || !('item' in change)) return false;
    const index = this.#unbuilt.findIndex((item) => item.id === change.item.id);
    if (index === -1) return false;
    if (change.type === 'removed') this.#unbuilt.splice(index, 1);
    else this.#unbuilt[index] = change.item;
    return true;
  }

  #append(item: ChatItem): void {
    const { element, agent } = messageElement(item, this.#context);
    this.#stick.append(element);
    this.#nodes.set(item.id, element);
    if (agent) this.#agents.set(item.id, agent);
    this.#empty.hidden = true;
  }

  #apply(change: ChatChange): void {
    if (change.type !== 'added' && this.#applyUnbuilt(change)) return;
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

  /** Moves focus to a waiting request: a permission card itself, a form's first field. */
  focusPermission(segmentId: string): void {
    this.#frame.run();
    this.#firstControl(segmentId)?.focus();
  }

  /** Where a request takes the focus: never on an option that allows, which Enter would press. */
  #firstControl(segmentId: string): HTMLElement | null {
    const id = CSS.escape(segmentId);
    const pinned = this.#pins.get(segmentId);
    const where = (kind: string) =>
      (pinned?.matches(`[data-${kind}]`) ? pinned : null) ??
      this.#log.querySelector<HTMLElement>(`[data-${kind}="${id}"]`);
    const permission = where('permission');
    if (permission) return permission;
    const card = where('elicitation');
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
