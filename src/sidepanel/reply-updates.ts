/**
 * How each `session/update` kind lands in an agent's reply: streamed text and thoughts, media,
 * tool calls and their updates, plans (whole, by id, removed), compaction, sub-agents and messages
 * between sessions. Session-level kinds (commands, mode, config, title, usage) are the agent's
 * state, kept by `session-state.ts`; kinds newer than this panel are ignored.
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { jsonPreview, mediaOf, textOfBlock, toolContentOf } from './chat-content';
import type {
  AgentItem,
  NoticeSeverity,
  PlanEntryView,
  Segment,
  SegmentFields,
  SegmentOf,
  ToolCallView,
} from './chat-types';
import { t } from './i18n';

/** What the reducer may do to the transcript; the chat model implements it for one agent. */
export interface ReplyOps {
  /** The agent's message being streamed, created on first use. */
  open(): AgentItem;
  add<K extends Segment['kind']>(item: AgentItem, kind: K, fields: SegmentFields<K>): SegmentOf<K>;
  changed(item: AgentItem, segment: Segment): void;
  appended(item: AgentItem, segment: Segment, delta: string): void;
  removed(item: AgentItem, segment: Segment): void;
  /** The newest segment of this kind that matches, in any of the agent's messages. */
  find<K extends Segment['kind']>(
    kind: K,
    match: (segment: SegmentOf<K>) => boolean,
  ): { item: AgentItem; segment: SegmentOf<K> } | undefined;
  notice(text: string, severity: NoticeSeverity, detail?: string): void;
  replayedUser(text: string): void;
}

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

export function applySessionUpdate(ops: ReplyOps, update: SessionUpdate): void {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const kind = update.sessionUpdate === 'agent_message_chunk' ? 'text' : 'thought';
      const text = textOfBlock(update.content);
      if (text !== undefined) return stream(ops, kind, text, update.messageId ?? undefined);
      const media = mediaOf(update.content);
      if (media) ops.add(ops.open(), 'media', { media });
      return;
    }
    case 'user_message_chunk': {
      const text = textOfBlock(update.content);
      if (text !== undefined) ops.replayedUser(text);
      return;
    }
    case 'tool_call':
    case 'tool_call_update':
      return toolCall(ops, update);
    case 'plan':
      return plan(ops, undefined, { entries: update.entries.map(planEntry) });
    case 'plan_update': {
      const content = update.plan;
      if (content.type === 'items') return plan(ops, content.planId, { entries: content.entries.map(planEntry) });
      if (content.type === 'markdown') return plan(ops, content.planId, { entries: [], markdown: content.content });
      if (content.type === 'file') return plan(ops, content.planId, { entries: [], uri: content.uri });
      return;
    }
    case 'plan_removed': {
      const found = ops.find('plan', (segment) => segment.planId === update.planId);
      if (found) ops.removed(found.item, found.segment);
      return;
    }
    case 'notice':
      return ops.notice(update.title, severityOf(update.severity), update.description ?? undefined);
    case 'compaction_update':
    case 'compaction_summary_chunk':
      return compaction(ops, update);
    case 'subagent_update': {
      const fields = {
        ...(update.title ? { title: update.title } : {}),
        ...(update.description ? { description: update.description } : {}),
        ...(update.state ? { state: update.state.state } : {}),
      };
      const found = ops.find('subagent', (segment) => segment.sessionId === update.sessionId);
      if (!found) return void ops.add(ops.open(), 'subagent', { sessionId: update.sessionId, ...fields });
      Object.assign(found.segment, fields);
      return ops.changed(found.item, found.segment);
    }
    case 'session_message':
    case 'session_message_chunk': {
      const blocks: ContentBlock[] =
        update.sessionUpdate === 'session_message' ? (update.content ?? []) : [update.content];
      const text = blocks.map((block) => textOfBlock(block) ?? '').join('');
      const item = ops.open();
      const found = item.segments.find(
        (segment): segment is SegmentOf<'relay'> => segment.kind === 'relay' && segment.messageId === update.messageId,
      );
      if (!found) return void ops.add(item, 'relay', { messageId: update.messageId, text });
      found.text += text;
      return ops.appended(item, found, text);
    }
    default:
      return;
  }
}

/** Appends streamed text to the message's last segment of that kind, or starts a new one. */
function stream(ops: ReplyOps, kind: 'text' | 'thought', text: string, messageId: string | undefined): void {
  const item = ops.open();
  const last = item.segments.at(-1);
  // A new messageId starts a new message within the reply (ACP's ContentChunk contract).
  if (last && last.kind === kind && (last.kind === 'thought' || last.messageId === messageId)) {
    last.text += text;
    return ops.appended(item, last, text);
  }
  if (kind === 'thought') ops.add(item, 'thought', { text });
  else ops.add(item, 'text', { text, ...(messageId ? { messageId } : {}) });
}

function toolCall(ops: ReplyOps, update: ToolUpdate): void {
  const found = ops.find('tool', (segment) => segment.call.id === update.toolCallId);
  // An update for a call never announced still deserves a card rather than silence.
  const call: ToolCallView = found?.segment.call ?? {
    id: update.toolCallId,
    title: t('toolCall'),
    status: 'pending',
    content: [],
    locations: [],
  };
  if (update.title) call.title = update.title;
  if (update.kind) call.kind = update.kind;
  if (update.status) call.status = update.status;
  if (update.content) call.content = toolContentOf(update.content);
  if (update.locations) {
    call.locations = update.locations.map((l) => ({ path: l.path, ...(l.line != null ? { line: l.line } : {}) }));
  }
  const input = jsonPreview(update.rawInput);
  if (input !== undefined) call.input = input;
  const output = jsonPreview(update.rawOutput);
  if (output !== undefined) call.output = output;
  if (found) ops.changed(found.item, found.segment);
  else ops.add(ops.open(), 'tool', { call });
}

function plan(ops: ReplyOps, planId: string | undefined, fields: Omit<SegmentFields<'plan'>, 'planId'>): void {
  const found = ops.find('plan', (segment) => segment.planId === planId);
  const open = ops.open();
  // A plan without an id is the agent's whole plan, re-sent each time: one card per reply.
  if (!found || (planId === undefined && found.item !== open)) {
    ops.add(open, 'plan', { ...(planId ? { planId } : {}), ...fields });
    return;
  }
  delete found.segment.markdown;
  delete found.segment.uri;
  Object.assign(found.segment, fields);
  ops.changed(found.item, found.segment);
}

function compaction(
  ops: ReplyOps,
  update: Extract<SessionUpdate, { sessionUpdate: 'compaction_update' | 'compaction_summary_chunk' }>,
): void {
  const found = ops.find('compaction', (segment) => segment.compactionId === update.compactionId);
  const segment =
    found?.segment ??
    ops.add(ops.open(), 'compaction', { compactionId: update.compactionId, status: 'in_progress', summary: '' });
  if (update.sessionUpdate === 'compaction_summary_chunk') {
    segment.summary += textOfBlock(update.content) ?? '';
  } else {
    segment.status = update.status;
    const summary = (update.summary ?? []).map((block) => textOfBlock(block) ?? '').join('');
    if (summary) segment.summary = summary;
    if (update.error) segment.error = update.error;
  }
  ops.changed(found?.item ?? ops.open(), segment);
}

function planEntry(entry: PlanEntryView): PlanEntryView {
  return { content: entry.content, status: entry.status, ...(entry.priority ? { priority: entry.priority } : {}) };
}

function severityOf(severity: string): NoticeSeverity {
  return severity === 'warning' || severity === 'error' ? severity : 'info';
}
