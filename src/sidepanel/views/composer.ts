/**
 * Where the user writes: Enter sends, Shift+Enter starts a new line, `/` lists the agents' slash
 * commands and `@` completes agent names. Stop, Retry and Clear screen sit beside Send; above the
 * box, what the panel puts there (the tab in front, to share). The draft is reported as it changes
 * so it survives the panel closing.
 */
import { h } from '../dom';
import { t } from '../i18n';
import type { SlashCommand } from '../session-state';
import { icon } from './icons';

export interface ComposerOptions {
  initialDraft: string;
  onSend(text: string): void;
  onStop(): void;
  onRetry(): void;
  onClear(): void;
  onDraft(text: string): void;
  /** Slash commands the connected agents offer, with the agent that offers each. */
  commands(): Array<SlashCommand & { agentName: string }>;
  /** Names of the agents in the room, for `@` completion. */
  agentNames(): string[];
  /** Shown above the message box, in its tab order (the tab in front, to share it). */
  header?: HTMLElement;
}

/** One entry of the completion list: what it shows, and the text it puts in place of [from, to). */
interface Suggestion {
  label: string;
  description: string;
  owner: string;
  from: number;
  to: number;
  insert: string;
}

/** The `@name` being typed just before the caret, if any (not inside an e-mail address). */
export function mentionBeingTyped(value: string, caret: number): { from: number; prefix: string } | undefined {
  const match = /(^|[\s(,;])@([^\s@]*)$/u.exec(value.slice(0, caret));
  if (!match) return undefined;
  return { from: match.index + match[1]!.length, prefix: match[2]! };
}

const MAX_HEIGHT_PX = 220;

export class Composer {
  readonly element: HTMLFormElement;
  readonly input: HTMLTextAreaElement;
  readonly #stop: HTMLButtonElement;
  readonly #retry: HTMLButtonElement;
  readonly #list: HTMLElement;
  #matches: Suggestion[] = [];
  #active = 0;

  constructor(private readonly options: ComposerOptions) {
    this.input = h('textarea', {
      id: 'composer-input',
      rows: 1,
      'aria-label': t('message'),
      placeholder: t('messagePlaceholder'),
      'aria-autocomplete': 'list',
      'aria-controls': 'command-list',
      'aria-describedby': 'composer-hint',
    });
    this.input.value = options.initialDraft;
    this.#list = h('ul', {
      className: 'command-list',
      id: 'command-list',
      role: 'listbox',
      'aria-label': t('commands'),
      hidden: true,
    });
    this.#stop = h(
      'button',
      { type: 'button', className: 'stop', disabled: true, onclick: () => options.onStop() },
      icon('stop'),
      h('span', {}, t('stop')),
    );
    this.#retry = h(
      'button',
      { type: 'button', className: 'ghost', title: t('retryHint'), disabled: true, onclick: () => options.onRetry() },
      icon('retry'),
      h('span', {}, t('retry')),
    );
    const clear = h(
      'button',
      {
        type: 'button',
        className: 'ghost',
        'aria-label': t('clearScreen'),
        title: t('clearScreenHint'),
        onclick: () => options.onClear(),
      },
      icon('clear'),
      h('span', {}, t('clear')),
    );
    const send = h('button', { type: 'submit', className: 'primary send' }, icon('send'), h('span', {}, t('send')));
    this.element = h(
      'form',
      { className: 'composer', 'aria-label': t('composer') },
      options.header ?? null,
      this.#list,
      this.input,
      h('p', { className: 'sr-only', id: 'composer-hint' }, t('composerHint')),
      h(
        'div',
        { className: 'composer-actions' },
        clear,
        this.#retry,
        h('span', { className: 'spacer' }),
        this.#stop,
        send,
      ),
    );
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#submit();
    });
    this.input.addEventListener('keydown', (event) => this.#onKey(event));
    this.input.addEventListener('input', () => {
      this.#grow();
      this.#updateCommands();
      options.onDraft(this.input.value);
    });
    this.input.addEventListener('blur', () => setTimeout(() => this.#closeCommands(), 150));
    queueMicrotask(() => this.#grow());
  }

  /** Stop is live only while some agent is answering. */
  setBusy(busy: boolean): void {
    this.#stop.disabled = !busy;
  }

  setCanRetry(can: boolean): void {
    this.#retry.disabled = !can;
  }

  focus(): void {
    this.input.focus();
  }

  #submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.options.onSend(text);
    this.input.value = '';
    this.options.onDraft('');
    this.#closeCommands();
    this.#grow();
  }

  #grow(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight + 2, MAX_HEIGHT_PX)}px`;
  }

  #onKey(event: KeyboardEvent): void {
    const listing = !this.#list.hidden && this.#matches.length > 0;
    if (listing && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.#highlight((this.#active + step + this.#matches.length) % this.#matches.length);
      return;
    }
    if (listing && (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey))) {
      event.preventDefault();
      this.#accept(this.#active);
      return;
    }
    if (listing && event.key === 'Escape') {
      event.preventDefault();
      this.#closeCommands();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.#submit();
    }
  }

  #suggestions(): Suggestion[] {
    const value = this.input.value;
    const slash = /^\/(\S*)$/.exec(value);
    if (slash) {
      const prefix = slash[1]!.toLowerCase();
      return this.options
        .commands()
        .filter((command) => command.name.toLowerCase().startsWith(prefix))
        .map((command) => ({
          label: `/${command.name}`,
          description: command.description,
          owner: command.agentName,
          from: 0,
          to: value.length,
          insert: `/${command.name} `,
        }));
    }
    const caret = this.input.selectionStart ?? value.length;
    const mention = mentionBeingTyped(value, caret);
    if (!mention) return [];
    const prefix = mention.prefix.toLowerCase();
    return this.options
      .agentNames()
      .filter((name) => name.toLowerCase().startsWith(prefix) && name.toLowerCase() !== prefix)
      .map((name) => ({
        label: `@${name}`,
        description: '',
        owner: '',
        from: mention.from,
        to: caret,
        insert: `@${name} `,
      }));
  }

  #updateCommands(): void {
    this.#matches = this.#suggestions();
    if (this.#matches.length === 0) {
      // A "/" with nothing behind it, when no connected agent offers any command: say so rather than nothing.
      if (this.input.value === '/' && this.options.commands().length === 0) {
        this.#list.replaceChildren(
          h('li', { role: 'option', 'aria-disabled': 'true', className: 'command-none' }, t('noCommandsOffered')),
        );
        this.#list.hidden = false;
        return;
      }
      return this.#closeCommands();
    }
    this.#list.replaceChildren(
      ...this.#matches.map((command, index) =>
        h(
          'li',
          {
            id: `command-${index}`,
            role: 'option',
            'aria-selected': 'false',
            onmousedown: (event: Event) => {
              event.preventDefault();
              this.#accept(index);
            },
          },
          h('span', { className: 'command-name' }, command.label),
          h('span', { className: 'command-description' }, command.description),
          h('span', { className: 'command-agent' }, command.owner),
        ),
      ),
    );
    this.#list.hidden = false;
    this.#highlight(0);
  }

  #highlight(index: number): void {
    this.#active = index;
    for (const [i, option] of [...this.#list.children].entries())
      option.setAttribute('aria-selected', String(i === index));
    this.input.setAttribute('aria-activedescendant', `command-${index}`);
    this.#list.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  #accept(index: number): void {
    const suggestion = this.#matches[index];
    if (!suggestion) return;
    const value = this.input.value;
    this.input.value = value.slice(0, suggestion.from) + suggestion.insert + value.slice(suggestion.to);
    const caret = suggestion.from + suggestion.insert.length;
    this.input.setSelectionRange(caret, caret);
    this.options.onDraft(this.input.value);
    this.#closeCommands();
    this.input.focus();
  }

  #closeCommands(): void {
    this.#list.hidden = true;
    this.#list.replaceChildren();
    this.#matches = [];
    this.input.removeAttribute('aria-activedescendant');
  }
}
