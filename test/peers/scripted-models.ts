/**
 * Stand-ins for the model APIs the agent CLIs speak, on loopback, so each real CLI can run a whole
 * turn with no model: OpenAI Chat Completions (opencode, Qwen Code), the OpenAI Responses API
 * (Codex) and Gemini's `streamGenerateContent` (Gemini CLI). Claude Code's Messages API is
 * scripted-anthropic.ts. All follow one script (see `decide`):
 *
 * - the request that carries the result of the scripted tool call is answered with a text quoting it;
 * - a user message with the word `slowly` gets a first chunk, then the answer is held until the
 *   agent hangs up (a turn to Stop);
 * - the first request that offers the wanted tool is answered with a call of it;
 * - `please say <word>` is answered with `Said: <word>.`; anything else with a short text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelScript {
  /** Matches the wanted tool's name as the agent offers it (each agent prefixes MCP tools its own way). */
  wanted: RegExp;
  /** The final text, given what the tool returned. */
  answer(result: string): string;
  /**
   * For an agent that offers MCP tools only by search (Qwen Code's `tool_search`, then `tool_call`):
   * the model searches with `query`, finds the wanted tool's name in the answer, and calls it through
   * `via` with `{name, arguments}`.
   */
  search?: { tool: string; query: string; via: string };
}

export interface ScriptedModel {
  url: string;
  /** The name the agent offered the wanted tool under. */
  readonly toolName: string | undefined;
  /** What the tool returned, as text. */
  readonly toolResult: string | undefined;
  /** What the agent's tool search answered (agents that offer MCP tools only by search). */
  readonly searchResult: string | undefined;
  /** One line per request answered: what it asked and what the model decided, for a failure to show. */
  readonly decisions: readonly string[];
  /** Every tool name offered, over all requests. */
  readonly offered: ReadonlySet<string>;
  /** Requests answered so far, and those still held open (a `slowly` turn). */
  readonly requests: number;
  readonly held: number;
  /** When the last held answer's request was closed by the agent. */
  readonly hungUpAt: number | undefined;
  close(): Promise<void>;
}

export const CALL_ID = 'call_tabwright_01';
const SEARCH_ID = 'call_tabwright_search';
const SLOW_FIRST_CHUNK = 'Working on it slowly…';
const HOLD_MS = 60_000;

type Decision =
  | { kind: 'text'; text: string }
  | { kind: 'call'; id: string; name: string; args: Record<string, unknown> }
  | { kind: 'hold' };

interface Turn {
  /** The text of the last user message. */
  userText: string;
  /** The results the request's last messages carry, by call id. */
  results: Map<string, string>;
  /** The names of the tools the request offers. */
  tools: string[];
}

interface State {
  toolName: string | undefined;
  toolResult: string | undefined;
  searchResult: string | undefined;
  decisions: string[];
  offered: Set<string>;
  requests: number;
  held: number;
  hungUpAt: number | undefined;
}

function decide(script: ModelScript, state: State, turn: Turn): Decision {
  const decision = decideTurn(script, state, turn);
  const what = decision.kind === 'call' ? `call ${decision.name}` : decision.kind;
  state.decisions.push(
    `${new Date().toISOString().slice(11, 23)} "${turn.userText.slice(0, 40).replace(/\s+/g, ' ')}" ` +
      `${turn.tools.length} tools, results [${[...turn.results.keys()].join(', ')}] → ${what}`,
  );
  return decision;
}

function decideTurn(script: ModelScript, state: State, turn: Turn): Decision {
  for (const tool of turn.tools) state.offered.add(tool);
  const result = turn.results.get(CALL_ID);
  if (result !== undefined) {
    state.toolResult = result;
    return { kind: 'text', text: script.answer(result) };
  }
  const found = turn.results.get(SEARCH_ID);
  if (found !== undefined && script.search) {
    state.searchResult = found;
    const name = found.match(/[\w.-]+/g)?.find((word) => script.wanted.test(word));
    if (!name) return { kind: 'text', text: 'The search found no such tool.' };
    state.toolName = name;
    return { kind: 'call', id: CALL_ID, name: script.search.via, args: { name, arguments: {} } };
  }
  if (/\bslowly\b/i.test(turn.userText)) return { kind: 'hold' };
  if (script.search && turn.tools.includes(script.search.tool) && state.searchResult === undefined) {
    return { kind: 'call', id: SEARCH_ID, name: script.search.tool, args: { query: script.search.query } };
  }
  const tool = turn.tools.find((name) => script.wanted.test(name));
  if (tool && state.toolName === undefined) {
    state.toolName = tool;
    return { kind: 'call', id: CALL_ID, name: tool, args: {} };
  }
  const said = /please say (\w+)/i.exec(turn.userText);
  return { kind: 'text', text: said ? `Said: ${said[1]}.` : 'Scripted reply.' };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (typeof content === 'object' && content !== null) {
    const { text, content: inner, output } = content as { text?: unknown; content?: unknown; output?: unknown };
    if (typeof text === 'string') return text;
    if (inner !== undefined) return textOf(inner);
    if (output !== undefined) return typeof output === 'string' ? output : JSON.stringify(output);
  }
  return '';
}

function sse(response: ServerResponse): (data: unknown, event?: string) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (data, event) =>
    response.write(
      `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    );
}

/** Keeps a held answer open until the agent hangs up (or a minute passes). */
function hold(request: IncomingMessage, response: ServerResponse, state: State): void {
  state.held++;
  const timer = setTimeout(() => response.end(), HOLD_MS);
  response.on('close', () => {
    clearTimeout(timer);
    state.held--;
    state.hungUpAt = Date.now();
  });
  request.on('aborted', () => response.destroy());
}

// ---- OpenAI Chat Completions -------------------------------------------------------------

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

function chatCompletions(
  script: ModelScript,
  state: State,
  body: Record<string, unknown>,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const messages = (body.messages as ChatMessage[] | undefined) ?? [];
  const tools = ((body.tools as Array<{ function?: { name?: string } }> | undefined) ?? []).flatMap((tool) =>
    tool.function?.name ? [tool.function.name] : [],
  );
  const userText = textOf([...messages].reverse().find((message) => message.role === 'user')?.content);
  const results = new Map<string, string>();
  for (const message of [...messages].reverse()) {
    if (message.role !== 'tool') break;
    if (message.tool_call_id) results.set(message.tool_call_id, textOf(message.content));
  }
  const decision = decide(script, state, { userText, results, tools });
  const base = {
    id: `chatcmpl-${state.requests}`,
    created: Math.floor(Date.now() / 1000),
    model: String(body.model ?? 'scripted'),
  };
  const usage = { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 };
  if (!body.stream) {
    const message =
      decision.kind === 'call'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: decision.id,
                type: 'function',
                function: { name: decision.name, arguments: JSON.stringify(decision.args) },
              },
            ],
          }
        : { role: 'assistant', content: decision.kind === 'text' ? decision.text : SLOW_FIRST_CHUNK };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: decision.kind === 'call' ? 'tool_calls' : 'stop' }],
        usage,
      }),
    );
    return;
  }
  const send = sse(response);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  if (decision.kind === 'hold') {
    chunk({ role: 'assistant', content: SLOW_FIRST_CHUNK });
    return hold(request, response, state);
  }
  if (decision.kind === 'call') {
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: decision.id,
          type: 'function',
          function: { name: decision.name, arguments: JSON.stringify(decision.args) },
        },
      ],
    });
    chunk({}, 'tool_calls');
  } else {
    chunk({ role: 'assistant', content: decision.text });
    chunk({}, 'stop');
  }
  send({ ...base, object: 'chat.completion.chunk', choices: [], usage });
  send('[DONE]');
  response.end();
}

// ---- OpenAI Responses API ----------------------------------------------------------------

interface ResponsesItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  output?: unknown;
}

function responses(
  script: ModelScript,
  state: State,
  body: Record<string, unknown>,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const input = (body.input as ResponsesItem[] | undefined) ?? [];
  const last = input.at(-1);
  const tools = (
    (body.tools as Array<{ name?: string; type?: string; tools?: Array<{ name?: string }> }> | undefined) ?? []
  ).flatMap((tool) =>
    // A namespace's tools (Codex puts each MCP server's in one) are named `<namespace>/<tool>` here.
    tool.type === 'namespace'
      ? (tool.tools ?? []).flatMap((inner) => (inner.name ? [`${tool.name}/${inner.name}`] : []))
      : tool.name
        ? [tool.name]
        : [],
  );
  const userText = textOf(
    [...input].reverse().find((item) => item.type === 'message' && item.role === 'user')?.content,
  );
  const results = new Map<string, string>();
  if (last?.type === 'function_call_output' && last.call_id) results.set(last.call_id, textOf(last.output));
  const decision = decide(script, state, { userText, results, tools });
  const id = `resp_${state.requests}`;
  const send = sse(response);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    send({ type, sequence_number: sequence++, ...data }, type);
  const shell = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'in_progress',
    model: String(body.model ?? 'scripted'),
    output: [],
  };
  event('response.created', { response: shell });
  const message = (text: string) => {
    const item = {
      type: 'message',
      id: `msg_${state.requests}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    event('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta: text });
    return item;
  };
  if (decision.kind === 'hold') {
    message(SLOW_FIRST_CHUNK);
    return hold(request, response, state);
  }
  const item =
    decision.kind === 'call'
      ? {
          type: 'function_call',
          id: `fc_${state.requests}`,
          call_id: decision.id,
          ...(decision.name.includes('/')
            ? { namespace: decision.name.split('/')[0], name: decision.name.split('/')[1] }
            : { name: decision.name }),
          arguments: JSON.stringify(decision.args),
          status: 'completed',
        }
      : message(decision.text);
  if (decision.kind === 'call') event('response.output_item.added', { output_index: 0, item });
  event('response.output_item.done', { output_index: 0, item });
  const usage = {
    input_tokens: 12,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 9,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 21,
  };
  event('response.completed', { response: { ...shell, status: 'completed', output: [item], usage } });
  response.end();
}

// ---- Gemini ------------------------------------------------------------------------------

interface GeminiPart {
  text?: string;
  functionResponse?: { name?: string; id?: string; response?: unknown };
}

function gemini(
  script: ModelScript,
  state: State,
  body: Record<string, unknown>,
  streaming: boolean,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const contents = (body.contents as Array<{ role?: string; parts?: GeminiPart[] }> | undefined) ?? [];
  const last = contents.at(-1);
  const tools = ((body.tools as Array<{ functionDeclarations?: Array<{ name?: string }> }> | undefined) ?? []).flatMap(
    (tool) => (tool.functionDeclarations ?? []).flatMap((declaration) => (declaration.name ? [declaration.name] : [])),
  );
  const answered = last?.parts?.find((part) => part.functionResponse && part.functionResponse.name === state.toolName);
  const userText = textOf(
    [...contents]
      .reverse()
      .find((content) => content.role === 'user' && content.parts?.some((part) => part.text))
      ?.parts?.map((part) => part.text ?? ''),
  );
  const wantsJson = Boolean(
    (body.generationConfig as { responseMimeType?: string } | undefined)?.responseMimeType?.includes('json'),
  );
  const decision: Decision = wantsJson
    ? { kind: 'text', text: JSON.stringify({ reasoning: 'The model answered.', next_speaker: 'user' }) }
    : decide(script, state, {
        userText,
        results: new Map(answered ? [[CALL_ID, textOf(answered.functionResponse?.response)]] : []),
        tools,
      });
  const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 9, totalTokenCount: 21 };
  const candidate = (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata,
  });
  const parts =
    decision.kind === 'call'
      ? [{ functionCall: { name: decision.name, args: decision.args } }]
      : [{ text: decision.kind === 'text' ? decision.text : SLOW_FIRST_CHUNK }];
  if (!streaming) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(candidate(parts, 'STOP')));
    return;
  }
  const send = sse(response);
  if (decision.kind === 'hold') {
    send(candidate(parts));
    return hold(request, response, state);
  }
  send(candidate(parts, 'STOP'));
  response.end();
}

// ---- the server --------------------------------------------------------------------------

export type ModelApi = 'chat-completions' | 'responses' | 'gemini';

export async function startScriptedModel(api: ModelApi, script: ModelScript): Promise<ScriptedModel> {
  const state: State = {
    toolName: undefined,
    toolResult: undefined,
    searchResult: undefined,
    decisions: [],
    offered: new Set(),
    requests: 0,
    held: 0,
    hungUpAt: undefined,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests++;
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        // Not JSON: answered below as a route not served.
      }
      if (request.method === 'POST' && api === 'chat-completions' && path.endsWith('/chat/completions')) {
        return chatCompletions(script, state, body, request, response);
      }
      if (request.method === 'POST' && api === 'responses' && path.endsWith('/responses')) {
        return responses(script, state, body, request, response);
      }
      if (request.method === 'POST' && api === 'gemini' && /:(stream)?[gG]enerateContent$/.test(path)) {
        return gemini(script, state, body, path.endsWith(':streamGenerateContent'), request, response);
      }
      if (request.method === 'POST' && api === 'gemini' && path.endsWith(':countTokens')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"totalTokens":12}');
        return;
      }
      if (request.method === 'GET' && path.endsWith('/models')) {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"object":"list","data":[{"id":"scripted","object":"model"}]}');
        return;
      }
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `not scripted: ${request.method} ${path}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get toolName() {
      return state.toolName;
    },
    get toolResult() {
      return state.toolResult;
    },
    get searchResult() {
      return state.searchResult;
    },
    get decisions() {
      return state.decisions;
    },
    get offered() {
      return state.offered;
    },
    get requests() {
      return state.requests;
    },
    get held() {
      return state.held;
    },
    get hungUpAt() {
      return state.hungUpAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
