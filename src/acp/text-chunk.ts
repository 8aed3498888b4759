/**
 * The one shape a streamed reply sends thousands of times: a `session/update` whose update is a
 * chunk of plain text. Recognised only when every key and type is one this module knows, so such
 * a notification is exactly what the SDK's schema would give back unchanged, and two of them can
 * be merged into one the schema reads the same way.
 */
import type { SessionNotification } from '@agentclientprotocol/sdk/unstable';

const TEXT_CHUNK_UPDATES: ReadonlySet<unknown> = new Set([
  'agent_message_chunk',
  'agent_thought_chunk',
  'user_message_chunk',
]);
const NOTIFICATION_KEYS = new Set(['sessionId', 'update']);
const UPDATE_KEYS = new Set(['sessionUpdate', 'content', 'messageId']);
const CONTENT_KEYS = new Set(['type', 'text']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnly(record: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(record)) if (!allowed.has(key)) return false;
  return true;
}

/** The notification when it is a plain text chunk (no annotations, no `_meta`); otherwise undefined. */
export function plainTextChunk(params: unknown): SessionNotification | undefined {
  if (!isRecord(params) || typeof params.sessionId !== 'string' || !hasOnly(params, NOTIFICATION_KEYS))
    return undefined;
  const update = params.update;
  if (!isRecord(update) || !TEXT_CHUNK_UPDATES.has(update.sessionUpdate) || !hasOnly(update, UPDATE_KEYS)) {
    return undefined;
  }
  if ('messageId' in update && typeof update.messageId !== 'string') return undefined;
  const content = update.content;
  if (!isRecord(content) || content.type !== 'text' || typeof content.text !== 'string') return undefined;
  if (!hasOnly(content, CONTENT_KEYS)) return undefined;
  return params as unknown as SessionNotification;
}
