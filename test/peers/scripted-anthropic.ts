/**
 * A stand-in for the Anthropic Messages API on loopback, for running the real Claude Code with no
 * model: the first request that offers the wanted tool is answered with a `tool_use` of it; the
 * request that carries that tool's result is answered with a final text quoting it. A user message
 * with the word `slowly` gets a first chunk and then nothing until Claude Code hangs up (a turn to
 * Stop); `please say <word>` is answered `Said: <word>.`. Anything else Claude Code asks on the side
 * (titles, summaries) gets a short text. Answers stream in the
 * Messages API's server-sent-event format, or come whole when the request does not stream.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Block {
  type: string;
  text?: string;
  id?: string;
  tool_use_id?: string;
  content?: string | Block[];
}

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name: string }>;
  messages?: Array<{ role: string; content: string | Block[] }>;
}

export interface ScriptedAnthropic {
  url: string;
  /** The tool result the scripted tool_use came back with, as text. */
  readonly toolResult: string | undefined;
  /** The exact name Claude Code gave the wanted tool. */
  readonly toolName: string | undefined;
  readonly requests: number;
  /** Every tool name offered, over all requests. */
  readonly offered: ReadonlySet<string>;
  /** Answers held open (a user message with the word `slowly`: a turn to Stop). */
  readonly held: number;
  close(): Promise<void>;
}

const TOOL_USE_ID = 'toolu_tabwright_01';

function textOf(content: string | Block[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => block.text ?? textOf(block.content)).join('\n');
}

function send(response: ServerResponse, request: MessagesRequest, content: Block[], stopReason: string): void {
  const message = {
    id: `msg_${Math.random().toString(36).slice(2, 10)}`,
    type: 'message',
    role: 'assistant',
    model: request.model ?? 'claude-scripted',
    stop_reason: null as string | null,
    stop_sequence: null,
    // The cache counts a real answer carries: Claude Code reports usage it cannot add up without them.
    usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
  if (!request.stream) {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ ...message, content, stop_reason: stopReason, usage: { ...message.usage, output_tokens: 9 } }),
      );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', { message: { ...message, content: [] } });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text ?? '' } });
    } else {
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify((block as { input?: unknown }).input ?? {}) },
      });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 9 } });
  event('message_stop', {});
  response.end();
}

/** `wanted` matches the tool's name as Claude Code lists it (it prefixes and rewrites MCP tool names). */
export async function startScriptedAnthropic(
  wanted: RegExp,
  answer: (result: string) => string,
): Promise<ScriptedAnthropic> {
  let toolResult: string | undefined;
  let toolName: string | undefined;
  let requests = 0;
  let held = 0;
  const offered = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests++;
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (request.method !== 'POST' || !path.endsWith('/messages')) {
        if (path.endsWith('/count_tokens')) {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":12}');
          return;
        }
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as MessagesRequest;
      for (const tool of body.tools ?? []) offered.add(tool.name);
      const last = body.messages?.at(-1);
      const result = Array.isArray(last?.content)
        ? last.content.find((block) => block.type === 'tool_result' && block.tool_use_id === TOOL_USE_ID)
        : undefined;
      if (result) {
        toolResult = textOf(result.content);
        return send(response, body, [{ type: 'text', text: answer(toolResult) }], 'end_turn');
      }
      const userText = last?.role === 'user' ? textOf(last.content) : '';
      if (/\bslowly\b/i.test(userText) && body.stream) {
        // A turn to Stop: a first chunk, then nothing until Claude Code hangs up.
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const event = (type: string, data: Record<string, unknown>) =>
          response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        event('message_start', {
          message: {
            id: 'msg_slow',
            type: 'message',
            role: 'assistant',
            model: body.model ?? 'claude-scripted',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        });
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Working on it slowly…' } });
        held++;
        const timer = setTimeout(() => response.end(), 60_000);
        response.on('close', () => {
          clearTimeout(timer);
          held--;
        });
        return;
      }
      const tool = body.tools?.find((candidate) => wanted.test(candidate.name));
      if (tool && toolResult === undefined) {
        toolName = tool.name;
        return send(
          response,
          body,
          [{ type: 'tool_use', id: TOOL_USE_ID, name: tool.name, input: {} } as Block],
          'tool_use',
        );
      }
      const said = /please say (\w+)/i.exec(userText);
      send(response, body, [{ type: 'text', text: said ? `Said: ${said[1]}.` : 'Scripted reply.' }], 'end_turn');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get toolResult() {
      return toolResult;
    },
    get toolName() {
      return toolName;
    },
    get requests() {
      return requests;
    },
    get held() {
      return held;
    },
    get offered() {
      return offered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
