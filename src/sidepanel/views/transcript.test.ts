// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatModel, type AgentItem, type ChatItem } from '../chat-model';
import { StreamingMarkdown } from '../markdown/stream';
import { TranscriptView } from './transcript';

// jsdom does no layout and has no IntersectionObserver.
Element.prototype.scrollIntoView = () => undefined;
globalThis.IntersectionObserver = class {
  observe() {}
  disconnect() {}
} as unknown as typeof IntersectionObserver;

/** A reply long enough to need several slices: prose, code and a table. */
function reply(n: number): string {
  const section = (i: number) =>
    `## Part ${n}.${i}\n\nSome prose about step ${i} with \`code_${i}\`.\n\n` +
    '```ts\n' +
    Array.from({ length: 12 }, (_, line) => `const value${line} = ${line * i}; // line ${line}`).join('\n') +
    '\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n';
  return Array.from({ length: 5 }, (_, i) => section(i)).join('');
}

function agentItem(n: number): AgentItem {
  return {
    kind: 'agent',
    id: `m${n}`,
    at: 1_000,
    agentId: 'a1',
    agentName: 'Demo',
    segments: [{ kind: 'text', id: `s${n}`, text: reply(n) }],
    done: true,
  };
}

function renderedOnce(text: string): string {
  const once = new StreamingMarkdown();
  once.reset(text);
  return once.element.innerHTML;
}

const bodyOf = (view: TranscriptView, id: string) =>
  view.element.querySelector(`[data-id="${id}"] .markdown`)?.innerHTML ?? '';
const busy = (view: TranscriptView) => view.element.querySelectorAll('[aria-busy="true"]').length;

describe('TranscriptView slicing', () => {
  let clock = 0;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    // Every reading of the clock costs 3 ms: a frame's budget covers a few slices, never the whole history.
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Runs frames until nothing is left to render; returns how many it took. */
  function frames(view: TranscriptView, limit = 10_000): number {
    let count = 0;
    while (busy(view) > 0 && count < limit) {
      vi.advanceTimersByTime(120);
      count++;
    }
    return count;
  }

  it('restores a history over many frames, newest message first, ending as one-shot renders would', () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    const items: ChatItem[] = Array.from({ length: 8 }, (_, n) => agentItem(n));
    chat.restore(items);
    vi.advanceTimersByTime(120);
    // After the first frame the visible end has started rendering and the oldest has not.
    expect(bodyOf(view, 'm7')).not.toBe('');
    expect(bodyOf(view, 'm0')).toBe('');
    expect(frames(view)).toBeGreaterThan(3);
    for (let n = 0; n < 8; n++) expect(bodyOf(view, `m${n}`)).toBe(renderedOnce(reply(n)));
    // Messages stay in their order in the transcript.
    const order = [...view.element.querySelectorAll('[data-id]')].map((e) => e.getAttribute('data-id'));
    expect(order).toEqual(items.map((item) => item.id));
  });

  it('builds the views of a long restored history over frames, newest first, with changes made meanwhile', () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    const queued: ChatItem = { kind: 'user', id: 'u0', at: 1_000, text: 'sent later', to: ['a1'] };
    const items: ChatItem[] = [queued, ...Array.from({ length: 12 }, (_, n) => agentItem(n))];
    chat.restore(items);
    chat.setQueue('a1', ['u0']);
    const built = () => [...view.element.querySelectorAll('[data-id]')].map((e) => e.getAttribute('data-id'));
    // The task the history arrived in built the newest messages only.
    expect(built().length).toBeGreaterThan(0);
    expect(built().length).toBeLessThan(items.length);
    expect(built().at(-1)).toBe('m11');
    expect(busy(view)).toBeGreaterThan(0);
    // The oldest message changes before its view exists; it is built as it is by then.
    chat.setQueue('a1', []);
    expect(frames(view)).toBeGreaterThan(3);
    expect(built()).toEqual(items.map((item) => item.id));
    expect(view.element.querySelector('[data-id="u0"]')!.classList.contains('queued')).toBe(false);
    for (const n of [0, 6, 11]) expect(bodyOf(view, `m${n}`)).toBe(renderedOnce(reply(n)));
  });

  it('renders a reply that arrives whole over several frames, ending as a one-shot render', () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    const text = reply(1) + reply(2) + reply(3) + reply(4);
    chat.startTurn('a1', 'Demo');
    chat.applyUpdate('a1', 'Demo', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    chat.endTurn('a1', { stopReason: 'end_turn' });
    // The task the reply ended in rendered a slice, not the whole of it.
    expect(busy(view)).toBe(1);
    expect(frames(view)).toBeGreaterThan(0);
    const id = chat.items[0]!.id;
    expect(bodyOf(view, id)).toBe(renderedOnce(text));
  });

  it("shows two agents' streaming text in every frame, though the budget formats only one", () => {
    // A slow machine: one reply's slice takes the whole budget of a frame.
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    const texts = { a1: reply(1) + reply(2), a2: reply(3) + reply(4) };
    chat.startTurn('a1', 'Alpha');
    chat.startTurn('a2', 'Beta');
    const shown = (n: number) => view.element.querySelectorAll('article.message.agent .markdown')[n]!.textContent ?? '';
    for (let at = 0; at < texts.a1.length; at += 2_000) {
      for (const agent of ['a1', 'a2'] as const) {
        const text = texts[agent].slice(at, at + 2_000);
        chat.applyUpdate(agent, agent, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
      }
      vi.advanceTimersByTime(60);
      // The newest words of both replies are on screen, formatted or as written.
      for (const [index, agent] of (['a1', 'a2'] as const).entries()) {
        const last = texts[agent]
          .slice(0, at + 2_000)
          .trimEnd()
          .split(/\s+/)
          .at(-1)!;
        expect(shown(index)).toContain(last.replace(/[*`|#-]/g, '').slice(0, 6));
      }
    }
  });

  it('ends with the text received so far when the reply is stopped mid-slice', () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    const text = reply(4) + reply(5);
    chat.startTurn('a1', 'Demo');
    chat.applyUpdate('a1', 'Demo', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    vi.advanceTimersByTime(120);
    chat.endTurn('a1', { stopReason: 'cancelled' });
    frames(view);
    expect(bodyOf(view, chat.items[0]!.id)).toBe(renderedOnce(text));
  });

  it('drops the rest of a restore when the screen is cleared mid-slice', () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    chat.restore(Array.from({ length: 6 }, (_, n) => agentItem(n)));
    vi.advanceTimersByTime(120);
    chat.clear();
    expect(frames(view)).toBe(0);
    expect(view.element.querySelectorAll('[data-id]')).toHaveLength(0);
    chat.restore([agentItem(7)]);
    frames(view);
    expect(bodyOf(view, 'm7')).toBe(renderedOnce(reply(7)));
  });
});
