/**
 * The conversation as data: what the user said, what each agent answered (streamed), tool calls,
 * permission requests, confirmations and notices. Views subscribe to changes; nothing here
 * touches the DOM.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';

export interface UserItem {
  kind: 'user';
  id: string;
  at: number;
  text: string;
  to: string[];
  queued: boolean;
}

export interface ToolCallView {
  id: string;
  title: string;
  status: string;
  text: string;
}

export interface AgentItem {
  kind: 'agent';
  id: string;
  at: number;
  agentId: string;
  agentName: string;
  text: string;
  thought: string;
  toolCalls: ToolCallView[];
  plan: Array<{ content: string; status: string }>;
  done: boolean;
  stopReason?: string;
  error?: string;
}

export interface NoticeItem {
  kind: 'notice';
  id: string;
  at: number;
  text: string;
  agentId?: string;
}

export type ChatItem = UserItem | AgentItem | NoticeItem;

export type ChatChange =
  | { type: 'added'; item: ChatItem }
  | { type: 'text'; item: AgentItem; delta: string }
  | { type: 'updated'; item: ChatItem }
  | { type: 'cleared' };

export class ChatModel {
  readonly items: ChatItem[] = [];
  readonly #listeners = new Set<(change: ChatChange) => void>();
  /** The agent item being streamed, per agent. */
  readonly #open = new Map<string, AgentItem>();
  #seq = 0;

  constructor(private readonly now: () => number = Date.now) {}

  subscribe(listener: (change: ChatChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: ChatChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  #add<T extends ChatItem>(item: T): T {
    this.items.push(item);
    this.#emit({ type: 'added', item });
    return item;
  }

  addUser(text: string, to: string[], id = `u${++this.#seq}`): UserItem {
    return this.#add({ kind: 'user', id, at: this.now(), text, to, queued: true });
  }

  markSent(ids: readonly string[]): void {
    for (const item of this.items) {
      if (item.kind === 'user' && item.queued && ids.includes(item.id)) {
        item.queued = false;
        this.#emit({ type: 'updated', item });
      }
    }
  }

  notice(text: string, agentId?: string): NoticeItem {
    return this.#add({ kind: 'notice', id: `n${++this.#seq}`, at: this.now(), text, ...(agentId ? { agentId } : {}) });
  }

  #agentItem(agentId: string, agentName: string): AgentItem {
    let item = this.#open.get(agentId);
    if (!item) {
      item = this.#add({
        kind: 'agent',
        id: `a${++this.#seq}`,
        at: this.now(),
        agentId,
        agentName,
        text: '',
        thought: '',
        toolCalls: [],
        plan: [],
        done: false,
      });
      this.#open.set(agentId, item);
    }
    return item;
  }

  applyUpdate(agentId: string, agentName: string, update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        if (update.content.type !== 'text') return;
        const item = this.#agentItem(agentId, agentName);
        item.text += update.content.text;
        this.#emit({ type: 'text', item, delta: update.content.text });
        return;
      }
      case 'agent_thought_chunk': {
        if (update.content.type !== 'text') return;
        const item = this.#agentItem(agentId, agentName);
        item.thought += update.content.text;
        this.#emit({ type: 'updated', item });
        return;
      }
      case 'tool_call': {
        const item = this.#agentItem(agentId, agentName);
        item.toolCalls.push({
          id: update.toolCallId,
          title: update.title,
          status: update.status ?? 'pending',
          text: '',
        });
        this.#emit({ type: 'updated', item });
        return;
      }
      case 'tool_call_update': {
        const item = this.#agentItem(agentId, agentName);
        const call = item.toolCalls.find((candidate) => candidate.id === update.toolCallId);
        if (!call) return;
        if (update.status) call.status = update.status;
        if (update.title) call.title = update.title;
        const text = (update.content ?? [])
          .map((block) => (block.type === 'content' && block.content.type === 'text' ? block.content.text : ''))
          .join('\n');
        if (text) call.text = text;
        this.#emit({ type: 'updated', item });
        return;
      }
      case 'plan': {
        const item = this.#agentItem(agentId, agentName);
        item.plan = update.entries.map((entry) => ({ content: entry.content, status: entry.status }));
        this.#emit({ type: 'updated', item });
        return;
      }
      default:
        return;
    }
  }

  endTurn(agentId: string, outcome: { stopReason: string } | { error: string }): void {
    const item = this.#open.get(agentId);
    this.#open.delete(agentId);
    if ('error' in outcome) {
      if (item) {
        item.error = outcome.error;
        item.done = true;
        this.#emit({ type: 'updated', item });
      } else {
        this.notice(outcome.error, agentId);
      }
      return;
    }
    if (item) {
      item.done = true;
      item.stopReason = outcome.stopReason;
      this.#emit({ type: 'updated', item });
    }
  }

  clear(): void {
    this.items.length = 0;
    this.#open.clear();
    this.#emit({ type: 'cleared' });
  }
}
