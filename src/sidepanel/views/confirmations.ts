/**
 * Inline, keyboard-operable write confirmations from the gates (agents' permission requests are
 * answered in the chat). Confirmations queue: one card at a time, oldest first, with the number waiting
 * behind it. A card's timeout runs only while it is on screen (nobody can answer a card they cannot
 * see); no answer in time is a denial. A call that is cancelled withdraws its card, wherever it is
 * in the queue. The card never takes focus from a text field the user is typing in, so a stray
 * Enter cannot approve anything; Escape denies. Focus lands on the card itself, never on "Allow
 * once", and its buttons ignore presses for a moment after it appears: the next card in the queue
 * appears where the last one was, under a pointer or a key that was meant for that one.
 */
import type { ConfirmAnswer, ConfirmRequest, ConfirmTarget } from '../../mcp-server/gates/types';
import { dialogAnswerOf } from '../../mcp-server/dialogs';
import { showInvisible } from '../../shared/text/invisible';
import { callInWords, shownName } from '../call-in-words';
import { h } from '../dom';
import { t } from '../i18n';
import './gates.css';

/** How long a new card's buttons ignore presses. */
export const ARM_DELAY_MS = 500;

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
    | {
        pending: Pending;
        timer: ReturnType<typeof setTimeout>;
        ticker: ReturnType<typeof setInterval>;
        arming: ReturnType<typeof setTimeout>;
      }
    | undefined;
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
      clearTimeout(this.#shown.arming);
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
    // Until armed, presses are ignored, and so is a press that began before the card was armed.
    let armed = false;
    let pressedEarly = false;
    const answer = (value: ConfirmAnswer) => () => {
      if (armed && !pressedEarly) this.#settle(pending, value);
    };
    const buttons = [
      h('button', { type: 'button', className: 'primary', onclick: answer('once') }, t('allowOnce')),
      ...(request.everyTime
        ? []
        : [
            // The grant covers this tool only: said on the button itself, its name kept for those who know it.
            h(
              'button',
              {
                type: 'button',
                'aria-label': t('allowForSite'),
                title: t('allowForSiteHint', request.tool, where),
                onclick: answer('site'),
              },
              t('allowForSiteScoped', request.tool),
            ),
          ]),
      h('button', { type: 'button', className: 'danger', onclick: answer('deny') }, t('deny')),
    ];
    for (const button of buttons) button.setAttribute('aria-disabled', 'true');
    const dialog = dialogLine(`${id}-dialog`, request.args);
    const described = [
      request.url ? `${id}-url` : '',
      request.targets ? `${id}-targets` : '',
      request.everyTime ? `${id}-every` : '',
      dialog ? `${id}-dialog` : '',
      `${id}-args`,
    ];
    const card = h(
      'section',
      {
        className: 'prompt confirmation',
        role: 'alertdialog',
        tabindex: '-1',
        'data-armed': 'false',
        'aria-labelledby': `${id}-heading`,
        'aria-describedby': [...described.filter(Boolean), `${id}-countdown`].join(' '),
      },
      h('h3', { id: `${id}-heading` }, headingOf(request)),
      request.url
        ? h(
            'p',
            { className: 'tab-url', id: `${id}-url` },
            `${request.ownTab ? t('confirmOwnTab') : t('fieldLabel', t('confirmTab'))} `,
            h('code', {}, showInvisible(request.url)),
          )
        : null,
      request.targets ? targetList(`${id}-targets`, request.targets) : null,
      request.everyTime ? h('p', { className: 'every-time', id: `${id}-every` }, t('confirmEveryTime')) : null,
      dialog,
      // The exact call, one click away: its id and its arguments as the agent sent them (secrets masked).
      h(
        'details',
        { className: 'call-details' },
        h('summary', {}, t('confirmArguments')),
        h(
          'p',
          { className: 'call-id' },
          `${t('fieldLabel', t('confirmCall'))} `,
          h('code', {}, `${request.server}.${request.tool}`),
        ),
        h(
          'pre',
          { className: 'args', id: `${id}-args`, tabindex: '0', 'aria-label': t('confirmArguments') },
          showInvisible(JSON.stringify(request.args, null, 2)),
        ),
      ),
      countdown,
      h('div', { className: 'actions' }, ...buttons),
      h('p', { className: 'queue-count', 'aria-live': 'polite' }),
    );
    card.addEventListener('pointerdown', () => (pressedEarly = !armed), true);
    card.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Enter' || event.key === ' ') pressedEarly = !armed;
      },
      true,
    );
    // After the buttons' own handlers: the next press is judged afresh.
    card.addEventListener('click', () => (pressedEarly = false));
    card.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.#settle(pending, 'deny');
      }
    });
    this.#slot.replaceChildren(card);
    const arm = () => {
      armed = true;
      card.dataset.armed = 'true';
      for (const button of buttons) button.removeAttribute('aria-disabled');
    };
    this.#shown = {
      pending,
      timer: setTimeout(() => this.#settle(pending, 'timeout'), pending.timeoutMs),
      ticker: setInterval(tick, 1000),
      arming: setTimeout(arm, ARM_DELAY_MS),
    };
    this.#renderCount();
    if (keepFocus || !typingInField()) card.focus();
  }
}

/** The call in words: who wants to do what, to which element, where. */
function headingOf(request: ConfirmRequest): string {
  const first = request.targets?.[0];
  return callInWords(
    {
      agentName: request.agentName,
      tool: request.tool,
      args: request.args,
      ...(first ? { element: first.element ?? null } : {}),
      origin: request.origin,
      ...(request.destination !== undefined ? { destination: request.destination } : {}),
    },
    t,
  );
}

/** How the call says to answer a dialog its action opens, when it says so. */
function dialogLine(id: string, args: Readonly<Record<string, unknown>>): HTMLElement | null {
  const answer = dialogAnswerOf(args.dialog);
  if (!answer) return null;
  const how = !answer.accept
    ? t('confirmDialogDismiss')
    : answer.promptText !== undefined
      ? t('confirmDialogAnswer', showInvisible(answer.promptText))
      : t('confirmDialogAccept');
  return h('p', { className: 'dialog-answer', id }, `${t('fieldLabel', t('confirmDialog'))} `, h('strong', {}, how));
}

/** What each ref/selector names in the page right now, as the page said just before asking. */
function targetList(id: string, targets: readonly ConfirmTarget[]): HTMLElement {
  return h(
    'div',
    { className: 'targets', id },
    h('span', { className: 'targets-label' }, t('fieldLabel', t('confirmTargets'))),
    h(
      'ul',
      { 'aria-label': t('confirmTargets') },
      ...targets.map(({ target, element }) =>
        h(
          'li',
          { className: element ? 'target' : 'target missing' },
          h('code', {}, showInvisible(target)),
          ' ',
          element
            ? `${shownName(element.role)}${element.name ? ` "${shownName(element.name)}"` : ''}`
            : t('confirmTargetMissing'),
        ),
      ),
    ),
  );
}
