/**
 * The transcript's data shapes. Everything here is plain data, so the transcript can be stored as
 * history and restored as it was; live objects (a pending permission's answer function) are kept
 * beside it by the model.
 */
import type { PlanEntryPriority, PlanEntryStatus, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk/unstable';
import type { ElicitationField, Problem } from './elicitation-form';
import type { GateFix } from './gate-fixes';

export interface UserItem {
  kind: 'user';
  id: string;
  at: number;
  text: string;
  /** The agents the message was addressed to (whether each still has to take it is the outbox's to say). */
  to: string[];
  /** Replayed by an agent while it loaded a session, rather than typed here. */
  replayedBy?: string;
}

/** Non-text content: a raster image (inline data), a link, an embedded resource, audio. */
export type MediaView =
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; bytes: number }
  | { type: 'link'; uri: string; name: string; description?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string };

export type ToolContentView =
  | { type: 'text'; text: string }
  | { type: 'diff'; path: string; oldText?: string; newText: string }
  | { type: 'terminal'; terminalId: string }
  | { type: 'media'; media: MediaView };

export interface ToolCallView {
  id: string;
  title: string;
  kind?: ToolKind;
  status: ToolCallStatus;
  content: ToolContentView[];
  locations: Array<{ path: string; line?: number }>;
  /** Arguments and raw result as pretty JSON, capped. */
  input?: string;
  output?: string;
}

export interface PlanEntryView {
  content: string;
  status: PlanEntryStatus;
  priority?: PlanEntryPriority;
}

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: string;
}

export type PermissionOutcome = { chosen: string; optionId: string; kind: string } | { cancelled: true };

/** How the user answered an input request (what was entered is the agent's to keep, not the transcript's). */
export interface ElicitationOutcome {
  action: 'accept' | 'decline' | 'cancel';
}

export type Segment =
  | { kind: 'text'; id: string; text: string; messageId?: string }
  | { kind: 'thought'; id: string; text: string }
  | { kind: 'media'; id: string; media: MediaView }
  | { kind: 'tool'; id: string; call: ToolCallView }
  | { kind: 'plan'; id: string; planId?: string; entries: PlanEntryView[]; markdown?: string; uri?: string }
  | {
      kind: 'permission';
      id: string;
      title: string;
      toolCallId?: string;
      /** What the tool does, as the agent classed it (read, edit, execute, …). */
      toolKind?: string;
      /** The tool's own name, where the agent says it (`_meta.toolName`). */
      toolName?: string;
      /** The agent's explanation and what the call would change: its text and diffs. */
      content?: ToolContentView[];
      input?: string;
      options: PermissionOptionView[];
      outcome?: PermissionOutcome;
    }
  | {
      kind: 'elicitation';
      id: string;
      message: string;
      mode: string;
      toolCallId?: string;
      /** Form mode: the fields of the requested schema, or why it cannot be shown. */
      fields?: ElicitationField[];
      problem?: Problem;
      /** URL mode: the address the agent wants opened. */
      url?: string;
      outcome?: ElicitationOutcome;
    }
  | { kind: 'compaction'; id: string; compactionId: string; status: string; summary: string; error?: string }
  | { kind: 'subagent'; id: string; sessionId: string; title?: string; description?: string; state?: string }
  | { kind: 'relay'; id: string; messageId: string; text: string }
  /** A call of the agent's was refused by the person's own settings: the change that lets the next one through. */
  | { kind: 'fix'; id: string; fix: GateFix; tool: string; applied?: boolean; problem?: string };

export type SegmentOf<K extends Segment['kind']> = Extract<Segment, { kind: K }>;
export type SegmentFields<K extends Segment['kind']> = Omit<SegmentOf<K>, 'kind' | 'id'>;

export interface AgentItem {
  kind: 'agent';
  id: string;
  at: number;
  agentId: string;
  agentName: string;
  segments: Segment[];
  done: boolean;
  /** The connection dropped mid-reply; the reply goes on here if the agent's session comes back. */
  interrupted?: boolean;
  stopReason?: string;
  error?: string;
}

export type NoticeSeverity = 'info' | 'warning' | 'error';

export interface NoticeItem {
  kind: 'notice';
  id: string;
  at: number;
  text: string;
  detail?: string;
  severity: NoticeSeverity;
  agentId?: string;
}

export type ChatItem = UserItem | AgentItem | NoticeItem;

/** Per agent, the ids of the messages its outbox still holds, oldest first. */
export type QueueView = Record<string, readonly string[]>;

export type ChatChange =
  | { type: 'added'; item: ChatItem }
  /** A segment was added to, or changed inside, an agent message. */
  | { type: 'segment'; item: AgentItem; segment: Segment }
  /** Streamed text was appended to a text, thought or relay segment. */
  | { type: 'text'; item: AgentItem; segment: Segment; delta: string }
  | { type: 'segment-removed'; item: AgentItem; segment: Segment }
  /** Item-level fields changed: queued state, done, stop reason, error. */
  | { type: 'updated'; item: ChatItem }
  | { type: 'removed'; item: ChatItem }
  /** The whole transcript was replaced (cleared or restored). */
  /** `restored`: the transcript was replaced by what is already stored (nothing new to save). */
  | { type: 'reset'; restored?: boolean };

/** The text of an agent message, as the user would copy it. */
export function messageText(item: AgentItem): string {
  return item.segments
    .filter((segment): segment is Extract<Segment, { kind: 'text' }> => segment.kind === 'text')
    .map((segment) => segment.text)
    .join('\n\n');
}
