/**
 * The conversation as data: what the user said, what each agent answered (streamed, in the order
 * it happened: text, thoughts, tool calls, plans, permission requests), and notices. Views
 * subscribe to changes; nothing here touches the DOM, so it is tested in Node and stored as history.
 */
import type { CreateElicitationResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk/unstable';
import type { ElicitationPrompt } from '../acp/elicitation';
import type { PermissionPrompt } from '../acp/permissions';
import { jsonPreview, toolContentOf } from './chat-content';
import { fieldsOf } from './elicitation-form';
import { sameFix, type GateFix } from './gate-fixes';
import type {
  AgentItem,
  ChatChange,
  ChatItem,
  NoticeItem,
  NoticeSeverity,
  Segment,
  SegmentFields,
  SegmentOf,
  QueueView,
  UserItem,
} from './chat-types';
import { applySessionUpdate, type ReplyOps } from './reply-updates';

export type { AgentItem, ChatChange, ChatItem, NoticeItem, QueueView, Segment, UserItem } from './chat-types';

export class ChatModel {
  readonly items: ChatItem[] = [];
  readonly #listeners = new Set<(change: ChatChange) => void>();
  /** The agent message being streamed, per agent. */
  readonly #open = new Map<string, AgentItem>();
  /** Answer functions of permission requests still waiting, by segment id. */
  readonly #prompts = new Map<string, PermissionPrompt>();
  /** Answer functions of input requests still waiting, by segment id. */
  readonly #elicitations = new Map<string, ElicitationPrompt>();
  /** Each agent's outbox as it last reported it (`AgentEvents.queueChanged`); never written from here. */
  readonly #queues = new Map<string, readonly string[]>();
  #seq = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly prefix = Date.now().toString(36),
  ) {}

  subscribe(listener: (change: ChatChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: ChatChange): void {
    for (const listener of this.#listeners) {
      // A view that fails must not stop the others, nor the connection that reported the update.
      try {
        listener(change);
      } catch (error) {
        console.error('Tabwright: a chat view failed to apply a change', error);
      }
    }
  }

  #id(kind: string): string {
    return `${kind}-${this.prefix}-${++this.#seq}`;
  }

  #add<T extends ChatItem>(item: T): T {
    this.items.push(item);
    this.#emit({ type: 'added', item });
    return item;
  }

  addUser(text: string, to: string[], id = this.#id('u')): UserItem {
    return this.#add({ kind: 'user', id, at: this.now(), text, to: [...to] });
  }

  /**
   * An agent's outbox reported what it still holds. The report replaces the agent's previous one
   * whole, so this view cannot drift from the outbox; every message whose place in it changed is
   * announced, and so saved with the history.
   */
  setQueue(agentId: string, ids: readonly string[]): void {
    const before = this.#queues.get(agentId) ?? [];
    if (ids.length) this.#queues.set(agentId, [...ids]);
    else this.#queues.delete(agentId);
    const changed = new Set([...before.filter((id) => !ids.includes(id)), ...ids.filter((id) => !before.includes(id))]);
    if (changed.size === 0) return;
    for (const item of this.items)
      if (item.kind === 'user' && changed.has(item.id)) this.#emit({ type: 'updated', item });
  }

  /** Whether some agent has still to take this message. */
  isQueued(messageId: string): boolean {
    for (const ids of this.#queues.values()) if (ids.includes(messageId)) return true;
    return false;
  }

  /** The outboxes' queues as last reported, per agent (what the history stores). */
  queue(): QueueView {
    return Object.fromEntries(this.#queues);
  }

  /** Messages typed here that some agent has still to take, oldest first. */
  queued(): UserItem[] {
    return this.items.filter((item): item is UserItem => item.kind === 'user' && this.isQueued(item.id));
  }

  notice(text: string, agentId?: string, severity: NoticeSeverity = 'info', detail?: string): NoticeItem {
    return this.#add({
      kind: 'notice',
      id: this.#id('n'),
      at: this.now(),
      text,
      severity,
      ...(detail ? { detail } : {}),
      ...(agentId ? { agentId } : {}),
    });
  }

  /** Whether the transcript holds anything from this agent (a restored history, for instance). */
  hasItemsFrom(agentId: string): boolean {
    return this.items.some((item) => item.kind === 'agent' && item.agentId === agentId);
  }

  lastUser(): UserItem | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (item.kind === 'user' && !item.replayedBy) return item;
    }
    return undefined;
  }

  /** The agent started answering: its message appears at once, so the user sees it working. */
  startTurn(agentId: string, agentName: string): AgentItem {
    return this.#agentItem(agentId, agentName);
  }

  #agentItem(agentId: string, agentName: string): AgentItem {
    let item = this.#open.get(agentId);
    if (!item) {
      item = this.#add<AgentItem>({
        kind: 'agent',
        id: this.#id('a'),
        at: this.now(),
        agentId,
        agentName,
        segments: [],
        done: false,
      });
      this.#open.set(agentId, item);
    }
    return item;
  }

  #segment<K extends Segment['kind']>(item: AgentItem, kind: K, fields: SegmentFields<K>): SegmentOf<K> {
    const segment = { kind, id: this.#id('s'), ...fields } as SegmentOf<K>;
    item.segments.push(segment);
    this.#emit({ type: 'segment', item, segment });
    return segment;
  }

  #findSegment<K extends Segment['kind']>(kind: K, match: (segment: SegmentOf<K>) => boolean) {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (item.kind !== 'agent') continue;
      const segment = item.segments.find((s): s is SegmentOf<K> => s.kind === kind && match(s as SegmentOf<K>));
      if (segment) return { item, segment };
    }
    return undefined;
  }

  applyUpdate(agentId: string, agentName: string, update: SessionUpdate): void {
    const open = this.#open.get(agentId);
    if (open?.interrupted) {
      // The session came back and the agent carries on: the same reply goes on.
      open.interrupted = false;
      this.#emit({ type: 'updated', item: open });
    }
    applySessionUpdate(this.#ops(agentId, agentName), update);
  }

  /** The connection dropped while the agent was replying; the reply stays open in case it goes on. */
  interruptTurn(agentId: string): void {
    const item = this.#open.get(agentId);
    if (!item || item.interrupted) return;
    item.interrupted = true;
    this.#emit({ type: 'updated', item });
  }

  /** One set of operations per agent and name, not one per streamed chunk. */
  readonly #opsCache = new Map<string, ReplyOps>();

  #ops(agentId: string, agentName: string): ReplyOps {
    const key = `${agentId}\n${agentName}`;
    let ops = this.#opsCache.get(key);
    if (!ops) {
      ops = this.#makeOps(agentId, agentName);
      this.#opsCache.set(key, ops);
    }
    return ops;
  }

  #makeOps(agentId: string, agentName: string): ReplyOps {
    return {
      open: () => this.#agentItem(agentId, agentName),
      add: (item, kind, fields) => this.#segment(item, kind, fields),
      changed: (item, segment) => this.#emit({ type: 'segment', item, segment }),
      appended: (item, segment, delta) => this.#emit({ type: 'text', item, segment, delta }),
      removed: (item, segment) => {
        item.segments = item.segments.filter((candidate) => candidate !== segment);
        this.#emit({ type: 'segment-removed', item, segment });
      },
      find: (kind, match) => this.#findSegment(kind, match),
      notice: (text, severity, detail) => void this.notice(`${agentName}: ${text}`, agentId, severity, detail),
      replayedUser: (text) => this.#replayedUser(agentId, agentName, text),
    };
  }

  #replayedUser(agentId: string, agentName: string, text: string): void {
    const last = this.items.at(-1);
    if (last?.kind === 'user' && last.replayedBy === agentName) {
      last.text += text;
      this.#emit({ type: 'updated', item: last });
      return;
    }
    this.#open.delete(agentId);
    this.#add<UserItem>({
      kind: 'user',
      id: this.#id('u'),
      at: this.now(),
      text,
      to: [agentId],
      replayedBy: agentName,
    });
  }

  /** A permission request from an agent, shown inline where the agent is in its reply. */
  permission(agentId: string, agentName: string, prompt: PermissionPrompt): void {
    const request = prompt.request;
    const owner = this.#agentItem(agentId, agentName);
    const call = request.toolCall;
    const toolName = typeof call._meta?.toolName === 'string' ? call._meta.toolName : undefined;
    const content = toolContentOf(call.content).filter((view) => view.type === 'text' || view.type === 'diff');
    const segment: SegmentOf<'permission'> = {
      kind: 'permission',
      id: this.#id('s'),
      title: permissionTitle(call.title, toolName ?? call.kind ?? prompt.tool),
      ...(call.toolCallId ? { toolCallId: call.toolCallId } : {}),
      ...(call.kind ? { toolKind: call.kind } : {}),
      ...(toolName ? { toolName } : {}),
      ...(content.length ? { content } : {}),
      ...(call.rawInput !== undefined ? { input: jsonPreview(call.rawInput) } : {}),
      options: request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    };
    // Registered before anyone hears of the segment, so views render it as waiting for an answer.
    this.#prompts.set(segment.id, prompt);
    owner.segments.push(segment);
    this.#emit({ type: 'segment', item: owner, segment });
    void prompt.settled.then((response) => {
      this.#prompts.delete(segment.id);
      const outcome = response.outcome;
      const option =
        outcome.outcome === 'selected' ? segment.options.find((o) => o.optionId === outcome.optionId) : undefined;
      segment.outcome = option
        ? { chosen: option.name, optionId: option.optionId, kind: option.kind }
        : { cancelled: true };
      this.#emit({ type: 'segment', item: owner, segment });
    });
  }

  /**
   * A call of the agent's was refused by the person's own settings: the fix is offered in its
   * reply, or on its own when no reply is under way. A fix still waiting in the agent's latest
   * message is not offered again (agents retry).
   */
  offerFix(agentId: string, agentName: string, fix: GateFix, tool: string): void {
    let latest = this.#open.get(agentId);
    for (let i = this.items.length - 1; !latest && i >= 0; i--) {
      const item = this.items[i]!;
      if (item.kind === 'agent' && item.agentId === agentId) latest = item;
    }
    const waiting = latest?.segments.some((s) => s.kind === 'fix' && !s.applied && sameFix(s.fix, fix));
    if (waiting) return;
    const open = this.#open.get(agentId);
    if (open) {
      this.#segment(open, 'fix', { fix, tool });
      return;
    }
    this.#add<AgentItem>({
      kind: 'agent',
      id: this.#id('a'),
      at: this.now(),
      agentId,
      agentName,
      segments: [{ kind: 'fix', id: this.#id('s'), fix, tool }],
      done: true,
    });
  }

  /** The person pressed a fix: it is marked done, or says why it could not be made. */
  fixDone(segmentId: string, problem?: string): void {
    const found = this.#findSegment('fix', (segment) => segment.id === segmentId);
    if (!found) return;
    if (problem) found.segment.problem = problem;
    else {
      found.segment.applied = true;
      delete found.segment.problem;
    }
    this.#emit({ type: 'segment', item: found.item, segment: found.segment });
  }

  /** Answers a pending permission request shown in the transcript. */
  answerPermission(segmentId: string, optionId: string | null): void {
    this.#prompts.get(segmentId)?.answer(optionId);
  }

  /** An input request from an agent (`elicitation/create`), shown inline like a permission request. */
  elicitation(agentId: string, agentName: string, prompt: ElicitationPrompt): void {
    const request = prompt.request;
    const owner = this.#agentItem(agentId, agentName);
    const toolCallId =
      'toolCallId' in request && typeof request.toolCallId === 'string' ? request.toolCallId : undefined;
    const segment: SegmentOf<'elicitation'> = {
      kind: 'elicitation',
      id: this.#id('s'),
      message: request.message,
      mode: request.mode,
      ...(toolCallId ? { toolCallId } : {}),
    };
    if (request.mode === 'form' && 'requestedSchema' in request) {
      const shown = fieldsOf(request.requestedSchema as never);
      if ('fields' in shown) segment.fields = shown.fields;
      else segment.problem = shown.problem;
    } else if (request.mode === 'url' && typeof request.url === 'string') {
      segment.url = request.url;
    } else {
      segment.problem = { key: 'elicitUnsupportedMode', args: [String(request.mode)] };
    }
    this.#elicitations.set(segment.id, prompt);
    owner.segments.push(segment);
    this.#emit({ type: 'segment', item: owner, segment });
    void prompt.settled.then((response) => {
      this.#elicitations.delete(segment.id);
      const action = response.action;
      segment.outcome = { action: action === 'accept' || action === 'decline' ? action : 'cancel' };
      this.#emit({ type: 'segment', item: owner, segment });
    });
  }

  /** Answers a pending input request shown in the transcript. */
  answerElicitation(segmentId: string, response: CreateElicitationResponse): void {
    this.#elicitations.get(segmentId)?.answer(response);
  }

  isAwaitingAnswer(segmentId: string): boolean {
    return this.#prompts.has(segmentId) || this.#elicitations.has(segmentId);
  }

  /** The text of the reply an agent is giving right now (what the room relays when it ends). */
  replyText(agentId: string): string | undefined {
    const item = this.#open.get(agentId);
    if (!item) return undefined;
    return item.segments
      .filter((segment): segment is SegmentOf<'text'> => segment.kind === 'text')
      .map((segment) => segment.text)
      .join('');
  }

  endTurn(agentId: string, outcome: { stopReason: StopReason | string } | { error: string }): void {
    const item = this.#open.get(agentId);
    this.#open.delete(agentId);
    if (!item) {
      if ('error' in outcome) this.notice(outcome.error, agentId, 'error');
      return;
    }
    item.done = true;
    delete item.interrupted;
    if ('error' in outcome) item.error = outcome.error;
    else item.stopReason = outcome.stopReason;
    this.#emit({ type: 'updated', item });
  }

  /** Whether an agent's reply is streaming right now. */
  isStreaming(agentId: string): boolean {
    return this.#open.has(agentId);
  }

  /** Clears the screen; sessions go on, and messages not sent yet stay so nothing typed is lost. */
  clear(): void {
    const keep = this.queued();
    this.items.length = 0;
    this.items.push(...keep);
    this.#open.clear();
    this.#emit({ type: 'reset' });
  }

  /**
   * Replaces the transcript with stored items (the panel reopened). The stored queue is not taken
   * in here: it goes back to the agents' outboxes (`AgentHub.requeue`), which report it.
   */
  restore(items: ChatItem[]): void {
    this.items.length = 0;
    for (const item of items) {
      if (item.kind === 'agent') {
        // A reply cut off by the panel closing ends here; its turn is not coming back to this page.
        item.done = true;
        for (const segment of item.segments) {
          if (segment.kind === 'permission' && !segment.outcome) segment.outcome = { cancelled: true };
          if (segment.kind === 'elicitation' && !segment.outcome) segment.outcome = { action: 'cancel' };
        }
      }
      this.items.push(item);
    }
    this.#open.clear();
    this.#emit({ type: 'reset', restored: true });
  }
}

/**
 * A request's title as the card shows it: the agent's, unless it says nothing a person can read
 * (empty, `{}`, `[]`, punctuation only), when the tool's name stands in.
 */
export function permissionTitle(title: string | null | undefined, fallback: string): string {
  const shown = title?.trim() ?? '';
  return /[\p{L}\p{N}]/u.test(shown) ? shown : fallback;
}
