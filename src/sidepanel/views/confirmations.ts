/**
 * Inline, keyboard-operable write confirmations from the gates (agents' permission requests are
 * answered in the chat). Confirmations queue: one card at a time, oldest first, with the number waiting
 * behind it. A card's timeout runs only while it is on screen (nobody can answer a card they cannot
 * see); no answer in time is a denial. A call that is cancelled withdraws its card, wherever it is
 * in the queue. The card never takes focus from a text field the user is typing in, so a stray
 * Enter cannot approve anything; Escape denies.
 */
import type { ConfirmAnswer, ConfirmRequest } from '../../mcp-server/gates/types';
import { h } from '../dom';
import { t } from '../i18n';
import './gates.css';

interface Pending {
  request: ConfirmRequest;
  timeoutMs: number;
  signal: AbortSignal;
  resolve(answer: ConfirmAnswer): void;
  onAbort(): void;
}

function typingInField(): boolean {
  const active = document.activeElement as HTMLElement | null;
  if (!active) return false;
  return (
    active.tagName === 'TEXTAREA' ||
    (active.tagName === 'INPUT' && (active as HTMLInputElement).type !== 'checkbox') ||
    active.isContentEditable
  );
}

export class PromptTray {
  readonly #queue: Pending[] = [];
  readonly #slot: HTMLElement;
  #shown:
    { pending: Pending; timer: ReturnType<typeof setTimeout>; ticker: ReturnType<typeof setInterval> } | undefined;
  #sequence = 0;

  constructor(private readonly root: HTMLElement) {
    this.#slot = h('div', { className: 'confirmation-slot' });
    root.append(this.#slot);
  }

  /** How many confirmations are waiting, the one on screen included. */
  get waiting(): number {
    return this.#queue.length;
  }

  confirm(request: ConfirmRequest, timeoutMs: number, signal: AbortSignal): Promise<ConfirmAnswer> {
    if (signal.aborted) return Promise.resolve('cancelled');
    return new Promise<ConfirmAnswer>((resolve) => {
      const pending: Pending = {
        request,
        timeoutMs,
        signal,
        resolve,
        onAbort: () => this.#settle(pending, 'cancelled'),
      };
      signal.addEventListener('abort', pending.onAbort, { once: true });
      this.#queue.push(pending);
      if (this.#shown) this.#renderCount();
      else this.#showNext();
    });
  }

  /** Withdraws every waiting confirmation (the kill switch was pulled). */
  withdrawAll(): void {
    for (const pending of [...this.#queue]) this.#settle(pending, 'cancelled');
  }

  #settle(pending: Pending, answer: ConfirmAnswer): void {
    const index = this.#queue.indexOf(pending);
    if (index === -1) return;
    this.#queue.splice(index, 1);
    pending.signal.removeEventListener('abort', pending.onAbort);
    pending.resolve(answer);
    if (this.#shown?.pending === pending) {
      clearTimeout(this.#shown.timer);
      clearInterval(this.#shown.ticker);
      this.#shown = undefined;
      const hadFocus = this.#slot.contains(document.activeElement);
      this.#slot.replaceChildren();
      this.#showNext(hadFocus);
    } else {
      this.#renderCount();
    }
  }

  #renderCount(): void {
    const count = this.#slot.querySelector('.queue-count');
    if (count) count.textContent = this.#queue.length > 1 ? t('confirmQueued', String(this.#queue.length - 1)) : '';
  }

  #showNext(keepFocus = false): void {
    const pending = this.#queue[0];
    if (!pending) return;
    const { request } = pending;
    const id = `confirm-${++this.#sequence}`;
    const deadline = Date.now() + pending.timeoutMs;
    const countdown = h('p', { className: 'countdown', id: `${id}-countdown` });
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      countdown.textContent = t('confirmCountdown', String(seconds));
    };
    tick();
    const where = request.destination ? `${request.origin} → ${request.destination}` : request.origin || '—';
    const answer = (value: ConfirmAnswer) => () => this.#settle(pending, value);
    const card = h(
      'section',
      {
        className: 'prompt confirmation',
        role: 'alertdialog',
        tabindex: '-1',
        'aria-labelledby': `${id}-heading`,
        'aria-describedby': `${id}-args ${id}-countdown`,
      },
      h(
        'h3',
        { id: `${id}-heading` },
        t('confirmHeading', request.agentName, `${request.server}.${request.tool}`, where),
      ),
      h(
        'pre',
        { className: 'args', id: `${id}-args`, tabindex: '0', 'aria-label': t('confirmArguments') },
        JSON.stringify(request.args, null, 2),
      ),
      countdown,
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'button', className: 'primary', onclick: answer('once') }, t('allowOnce')),
        h(
          'button',
          { type: 'button', title: t('allowForSiteHint', request.tool, where), onclick: answer('site') },
          t('allowForSite'),
        ),
        h('button', { type: 'button', className: 'danger', onclick: answer('deny') }, t('deny')),
      ),
      h('p', { className: 'queue-count', 'aria-live': 'polite' }),
    );
    card.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.#settle(pending, 'deny');
      }
    });
    this.#slot.replaceChildren(card);
    this.#shown = {
      pending,
      timer: setTimeout(() => this.#settle(pending, 'timeout'), pending.timeoutMs),
      ticker: setInterval(tick, 1000),
    };
    this.#renderCount();
    if (keepFocus || !typingInField()) card.focus();
  }
}
