/**
 * A streamed reply comes as thousands of small `session/update` text chunks, each its own socket
 * message. Every one of them costs the same whatever its length: the SDK's stream, its handler
 * chain and schema check, the panel's model and view. The panel shows text at most every few
 * frames anyway, so chunks that follow each other closely are merged into one before the SDK sees
 * them: a chunk waits up to `holdMs` for the next, and consecutive plain text chunks of the same
 * session, kind and message become one chunk with their texts joined.
 *
 * A flood of socket messages delays timers (they queue behind the messages), so a run of chunks
 * is also handed on when a chunk arrives after the run has waited `holdMs`: otherwise the text of
 * a burst would wait until the whole burst had been read.
 *
 * Order is kept: anything that is not such a chunk hands the waiting chunk on before itself, so
 * a reply's last words still come before the `session/prompt` response that ends it.
 */
import type { Clock } from './clock';
import { plainTextChunk } from './text-chunk';

/** About a frame: long enough to gather a burst, far shorter than the panel's render interval. */
export const CHUNK_HOLD_MS = 16;

type Message = object;

interface Held {
  message: Message;
  sessionId: string;
  sessionUpdate: string;
  messageId: string | undefined;
  texts: string[];
  since: number;
}

function textChunkOf(message: Message) {
  const record = message as { method?: unknown; id?: unknown; params?: unknown };
  if (record.method !== 'session/update' || 'id' in record) return undefined;
  return plainTextChunk(record.params);
}

function merged(held: Held): Message {
  if (held.texts.length === 1) return held.message;
  const { params } = held.message as { params: { update: object } };
  return {
    ...held.message,
    params: {
      ...params,
      update: { ...params.update, content: { type: 'text', text: held.texts.join('') } },
    },
  };
}

/**
 * `readable` with runs of close text chunks merged, in order. When `readable` ends or fails, the
 * waiting text is handed on first: a socket that drops mid-reply loses none of what it delivered.
 */
export function coalesceTextChunks<M extends Message>(
  readable: ReadableStream<M>,
  clock: Clock,
  holdMs = CHUNK_HOLD_MS,
): ReadableStream<M> {
  const source = readable.getReader();
  let out: ReadableStreamDefaultController<M> | undefined;
  let held: Held | undefined;
  let holdTimer: unknown;

  const hand = (message: Message) => {
    try {
      out?.enqueue(message as M);
    } catch {
      // The reader went away (the connection closed): nothing is waiting for this message.
    }
  };
  const release = () => {
    if (holdTimer !== undefined) clock.clearTimeout(holdTimer);
    holdTimer = undefined;
    if (held) hand(merged(held));
    held = undefined;
  };
  const take = (message: M) => {
    const chunk = textChunkOf(message);
    if (!chunk) {
      release();
      return hand(message);
    }
    const { sessionId, update } = chunk as {
      sessionId: string;
      update: { sessionUpdate: string; messageId?: string; content: { text: string } };
    };
    if (
      held &&
      held.sessionId === sessionId &&
      held.sessionUpdate === update.sessionUpdate &&
      held.messageId === update.messageId
    ) {
      held.texts.push(update.content.text);
      if (clock.now() - held.since >= holdMs) release();
      return;
    }
    release();
    held = {
      message,
      sessionId,
      sessionUpdate: update.sessionUpdate,
      messageId: update.messageId,
      texts: [update.content.text],
      since: clock.now(),
    };
    holdTimer = clock.setTimeout(release, holdMs);
  };

  return new ReadableStream<M>({
    start(controller) {
      out = controller;
      void (async () => {
        let failure: { error: unknown } | undefined;
        try {
          for (;;) {
            const { value, done } = await source.read();
            if (done) break;
            take(value);
          }
        } catch (error) {
          failure = { error };
        }
        release();
        if (!out) return; // cancelled: the reader is gone
        if (failure) controller.error(failure.error);
        else controller.close();
      })();
    },
    cancel(reason) {
      if (holdTimer !== undefined) clock.clearTimeout(holdTimer);
      held = undefined;
      out = undefined;
      return source.cancel(reason);
    },
  });
}
