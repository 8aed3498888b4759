/** The transcript: user messages on the right, agents on the left, streamed as they arrive. */
import type { AgentItem, ChatChange, ChatItem, ChatModel } from '../chat-model';
import { messageText } from '../chat-types';
import { clear, h } from '../dom';
import { t } from '../i18n';

function time(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export class ChatView {
  readonly #nodes = new Map<string, HTMLElement>();

  constructor(
    private readonly root: HTMLElement,
    model: ChatModel,
  ) {
    root.setAttribute('role', 'log');
    root.setAttribute('aria-live', 'polite');
    for (const item of model.items) this.#render(item);
    model.subscribe((change) => this.#apply(change));
  }

  #apply(change: ChatChange): void {
    if (change.type === 'reset') {
      clear(this.root);
      this.#nodes.clear();
      return;
    }
    this.#render(change.item);
  }

  #render(item: ChatItem): void {
    const existing = this.#nodes.get(item.id);
    const node = this.#build(item);
    if (existing) existing.replaceWith(node);
    else this.root.append(node);
    this.#nodes.set(item.id, node);
    this.#scroll();
  }

  #build(item: ChatItem): HTMLElement {
    switch (item.kind) {
      case 'user':
        return h(
          'article',
          { className: 'message user', 'data-id': item.id },
          h(
            'header',
            {},
            h('span', { className: 'who' }, t('you')),
            h('time', {}, time(item.at)),
            item.pending.length ? h('span', { className: 'queued' }, t('queued')) : null,
          ),
          h('div', { className: 'body' }, item.text),
        );
      case 'notice':
        return h('p', { className: 'notice', role: 'status' }, item.text);
      case 'agent':
        return this.#agent(item);
    }
  }

  #agent(item: AgentItem): HTMLElement {
    const calls = item.segments.flatMap((s) => (s.kind === 'tool' ? [s.call] : []));
    const tools = calls.map((call) =>
      h(
        'details',
        { className: `tool-call status-${call.status}` },
        h('summary', {}, `${call.title} — ${call.status}`),
        h('pre', {}, call.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')),
      ),
    );
    return h(
      'article',
      { className: `message agent${item.done ? ' done' : ''}`, 'data-id': item.id, 'data-agent': item.agentId },
      h('header', {}, h('span', { className: 'who' }, item.agentName), h('time', {}, time(item.at))),
      ...tools,
      h('div', { className: 'body' }, messageText(item)),
      item.error ? h('p', { className: 'error', role: 'alert' }, item.error) : null,
    );
  }

  #scroll(): void {
    this.root.scrollTop = this.root.scrollHeight;
  }
}

export function composer(options: { onSend(text: string): void; onStop(): void }): HTMLFormElement {
  const input = h('textarea', { id: 'composer-input', rows: 2, 'aria-label': t('message'), placeholder: t('message') });
  const form = h(
    'form',
    { className: 'composer' },
    input,
    h('button', { type: 'submit', className: 'primary' }, t('send')),
    h('button', { type: 'button', onclick: () => options.onStop() }, t('stop')),
  );
  const submit = () => {
    const text = input.value.trim();
    if (!text) return;
    options.onSend(text);
    input.value = '';
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  return form;
}
