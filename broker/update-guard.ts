/**
 * Session updates the ACP SDK would refuse, caught before it sees them. The SDK checks every
 * `session/update` against its schema and drops one that fails with a line on the console, so an
 * agent's update could vanish without the chat or the broker's log saying so (Claude Code sends
 * `usage_update` with `"used": null` when the model's usage has no cache counts). The SDK's schema
 * already reads a `null` where a field may be left out as left out, so what it refuses cannot be
 * repaired without making up a value: here the chat says, once per kind of update and reason, that
 * one was left out and why, masked like everything else the broker relays from an agent, and the
 * broker logs each one.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import type { Mask } from './secret-mask';

interface Issue {
  path: PropertyKey[];
  message: string;
}

interface NotificationSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
}

let loaded: Promise<NotificationSchema> | undefined;

/**
 * The schema the SDK itself checks `session/update` with. The SDK does not export it, so it is read
 * from the SDK's own files: the broker then accepts exactly what the SDK will.
 */
export function notificationSchema(): Promise<NotificationSchema> {
  loaded ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk/unstable');
    const url = pathToFileURL(join(dirname(entry), 'schema', 'zod.gen.js')).href;
    const module = (await import(url)) as { zSessionNotification: NotificationSchema };
    return module.zSessionNotification;
  })();
  return loaded;
}

/**
 * Why the schema refused an update, in words. An update is one of several shapes, and the schema
 * then only says the input is invalid: the fields that are `null` are what agents get wrong.
 */
function describeIssues(issues: Issue[], update: unknown): string {
  const nulls =
    typeof update === 'object' && update !== null
      ? Object.entries(update)
          .filter(([, value]) => value === null)
          .map(([name]) => `${name} is null`)
      : [];
  const said = issues
    .slice(0, 3)
    .filter((issue) => issue.path.join('.') !== 'update' || !nulls.length)
    .map((issue) => `${issue.path.map(String).join('.') || 'update'}: ${issue.message}`);
  return [...nulls, ...said].join('; ') || 'it does not match the ACP schema';
}

export interface UpdateGuardOptions {
  /** The broker's mask, for the note in the chat. */
  mask: Mask;
  log(line: string): void;
}

type Params = { sessionId?: unknown; update?: { sessionUpdate?: unknown } };

/**
 * What the SDK gets in place of one incoming message: the message, a note in its place, or nothing
 * (an update like one the chat was already told about).
 */
export function updateGuard(options: UpdateGuardOptions): (message: AnyMessage) => Promise<AnyMessage | undefined> {
  const told = new Set<string>();
  return async (message) => {
    if (!('method' in message) || message.method !== 'session/update' || 'id' in message) return message;
    const schema = await notificationSchema();
    const checked = schema.safeParse(message.params);
    if (checked.success) return message;
    const params = message.params as Params | undefined;
    const named = params?.update?.sessionUpdate;
    const kind = typeof named === 'string' ? options.mask(named).slice(0, 64) : 'unknown';
    const reason = options.mask(describeIssues(checked.error.issues, params?.update));
    options.log(`dropped a ${kind} update from the agent that ACP does not allow (${reason})`);
    const key = `${kind}\n${reason}`;
    if (told.has(key)) return undefined;
    told.add(key);
    const text =
      `\n\n*(The agent sent a ${kind} update that ACP does not allow, so the broker left it out: ${reason}. ` +
      'Later ones like it are left out too.)*\n\n';
    return {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: typeof params?.sessionId === 'string' ? params.sessionId : '',
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      },
    } as AnyMessage;
  };
}

/** The agent's side of the connection with its updates guarded (see updateGuard). */
export function guardedMessages(
  readable: ReadableStream<AnyMessage>,
  options: UpdateGuardOptions,
): ReadableStream<AnyMessage> {
  const guard = updateGuard(options);
  return readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform: async (message, controller) => {
        const guarded = await guard(message);
        if (guarded) controller.enqueue(guarded);
      },
    }),
  );
}
