/**
 * A broker peer for the chat UI, built on the ACP SDK's agent side: it streams documents in as
 * many chunks as asked (benchmarks, XSS corpus), shows every kind of `session/update` (thoughts,
 * plans, tool calls, usage, mode, commands, notices), and asks permission so the panel's answer
 * can be checked. Anything else is echoed.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agent, methods, type AgentContext, type SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';

export interface ShowcaseOptions {
  /** Documents the `stream <name> <chunks> [intervalMs]` command can send, a chunk every `intervalMs`. */
  documents?: Record<string, string>;
  /** Texts the `corpus` command sends, each as its own message. */
  corpus?: readonly string[];
}

export interface ShowcasePeer {
  url: string;
  /** Prompts received, in order. */
  prompts: string[];
  /** Answers the panel gave to permission requests (option id, or "cancelled"). */
  answers: string[];
  /** Sessions started, with the MCP server names each declared. */
  sessions: Array<{ id: string; servers: string[] }>;
  close(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    // The listener goes when the sleep ends: a long stream sleeps thousands of times on one signal.
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Splits text into `count` pieces of near-equal length. */
export function splitInto(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

export const SHOWCASE_REPLY = [
  'Here is what I found on the page. The **build** fails because `parseConfig` returns `undefined`',
  'when the file is empty — see [the docs](https://example.com/docs/config).',
  '',
  '```ts',
  'export function parseConfig(text: string): Config {',
  '  if (!text.trim()) return { rules: [] }; // empty file: no rules, not undefined',
  '  return JSON.parse(text) as Config;',
  '}',
  '```',
  '',
  '| Check | Before | After |',
  '|:------|:------:|------:|',
  '| unit tests | 41 failed | 0 failed |',
  '| build | ✗ | ✓ |',
  '',
  '1. Guard the empty file',
  '2. Add a test for it',
].join('\n');

export async function startShowcasePeer(options: ShowcaseOptions = {}): Promise<ShowcasePeer> {
  const prompts: string[] = [];
  const answers: string[] = [];
  const sessions: ShowcasePeer['sessions'] = [];
  const turns = new Map<string, AbortController>();

  const createAgent = () => {
    const update = (client: AgentContext, sessionId: string, value: SessionUpdate) =>
      client.notify('session/update', { sessionId, update: value });
    const say = (client: AgentContext, sessionId: string, text: string, messageId?: string) =>
      update(client, sessionId, {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text },
        ...(messageId ? { messageId } : {}),
      });

    const showcase = async (client: AgentContext, sessionId: string, signal: AbortSignal) => {
      await update(client, sessionId, { sessionUpdate: 'session_info_update', title: 'Fix the empty config crash' });
      await update(client, sessionId, {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'review', description: 'Review the current diff' },
          { name: 'plan', description: 'Plan before changing anything', input: { hint: 'goal' } },
        ],
      });
      await update(client, sessionId, { sessionUpdate: 'current_mode_update', currentModeId: 'code' });
      for (const piece of ['The user wants the crash fixed. ', 'First read the page, then the config loader.']) {
        await update(client, sessionId, {
          sessionUpdate: 'agent_thought_chunk',
          content: { type: 'text', text: piece },
        });
        await sleep(20, signal);
      }
      const entries = (done: number) =>
        ['Read the failing page', 'Find the config loader', 'Propose a fix'].map((content, index) => ({
          content,
          priority: index === 2 ? ('high' as const) : ('medium' as const),
          status:
            index < done ? ('completed' as const) : index === done ? ('in_progress' as const) : ('pending' as const),
        }));
      await update(client, sessionId, { sessionUpdate: 'plan', entries: entries(0) });
      const toolCallId = randomUUID();
      await update(client, sessionId, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: 'tabwright.snapshot',
        kind: 'read',
        status: 'in_progress',
        rawInput: { selector: 'main', maxChars: 24000 },
      });
      await sleep(30, signal);
      await update(client, sessionId, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        content: [
          {
            type: 'content',
            content: {
              type: 'text',
              text: '# snapshot — Build status\n- heading "Build failed" [level=1]\n- button "Retry" [e4]',
            },
          },
          {
            type: 'diff',
            path: 'src/config.ts',
            oldText: 'return JSON.parse(text);',
            newText: 'if (!text.trim()) return { rules: [] };\nreturn JSON.parse(text);',
          },
        ],
      });
      await update(client, sessionId, { sessionUpdate: 'plan', entries: entries(2) });
      for (const piece of splitInto(SHOWCASE_REPLY, 40)) {
        await say(client, sessionId, piece);
        await sleep(5, signal);
      }
      await update(client, sessionId, {
        sessionUpdate: 'usage_update',
        used: 53_000,
        size: 200_000,
        cost: { amount: 0.04, currency: 'USD' },
      });
    };

    return agent({ name: 'showcase-peer' })
      .onRequest(methods.agent.initialize, () => ({
        protocolVersion: 1,
        agentCapabilities: { loadSession: false, sessionCapabilities: { resume: {} }, mcpCapabilities: { acp: true } },
        agentInfo: { name: 'showcase-peer', version: '1.0.0' },
      }))
      .onRequest(methods.agent.session.new, ({ params }) => {
        const id = randomUUID();
        sessions.push({ id, servers: (params.mcpServers ?? []).map((server) => server.name) });
        return { sessionId: id };
      })
      .onRequest(methods.agent.session.resume, ({ params }) => {
        sessions.push({ id: params.sessionId, servers: (params.mcpServers ?? []).map((server) => server.name) });
        return {};
      })
      .onNotification(methods.agent.session.cancel, ({ params }) => turns.get(params.sessionId)?.abort())
      .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
        const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
        prompts.push(text);
        const controller = new AbortController();
        turns.set(params.sessionId, controller);
        const { signal } = controller;
        const sessionId = params.sessionId;
        const [command = '', ...rest] = text.trim().split(/\s+/);
        try {
          if (command === 'showcase') {
            await showcase(client, sessionId, signal);
          } else if (command === 'stream') {
            const [name = '', chunks = '100', delay = '0'] = rest;
            const document = options.documents?.[name] ?? '';
            // Kept to a schedule, not slept between: the stated rate is the rate sent, however
            // long each send and timer takes.
            const started = performance.now();
            for (const [index, piece] of splitInto(document, Number(chunks)).entries()) {
              if (signal.aborted) break;
              await say(client, sessionId, piece);
              await sleep(started + (index + 1) * Number(delay) - performance.now(), signal);
            }
          } else if (command === 'corpus') {
            const corpus = options.corpus ?? [];
            for (const [index, vector] of corpus.entries()) {
              for (const piece of splitInto(vector, 3)) await say(client, sessionId, piece, `v${index}`);
            }
            // The same texts through the other places an agent controls.
            for (const [index, vector] of corpus.entries()) {
              if (index % 5) continue;
              await update(client, sessionId, {
                sessionUpdate: 'agent_thought_chunk',
                content: { type: 'text', text: vector },
              });
              await update(client, sessionId, {
                sessionUpdate: 'tool_call',
                toolCallId: `x${index}`,
                title: vector,
                status: 'completed',
                rawInput: { vector },
                content: [{ type: 'content', content: { type: 'text', text: vector } }],
              });
              await update(client, sessionId, {
                sessionUpdate: 'plan',
                entries: [{ content: vector, priority: 'low', status: 'pending' }],
              });
              await update(client, sessionId, { sessionUpdate: 'notice', severity: 'warning', title: vector });
            }
            await say(client, sessionId, `corpus done: ${corpus.length}`, 'done');
          } else if (command === 'permission') {
            // `permission after <ms> <title>` asks later, once the user has moved elsewhere.
            if (rest[0] === 'after') {
              await sleep(Number(rest[1]), signal);
              rest.splice(0, 2);
            }
            const toolCallId = randomUUID();
            const title = rest.join(' ') || 'Write to src/config.ts';
            await update(client, sessionId, {
              sessionUpdate: 'tool_call',
              toolCallId,
              title,
              kind: 'edit',
              status: 'pending',
            });
            const response = await client.request('session/request_permission', {
              sessionId,
              toolCall: { toolCallId, title, rawInput: { path: 'src/config.ts' } },
              options: [
                { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
                { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
                { optionId: 'no', name: 'Reject', kind: 'reject_once' },
              ],
            });
            const answer = response.outcome.outcome === 'selected' ? response.outcome.optionId : 'cancelled';
            answers.push(answer);
            await update(client, sessionId, {
              sessionUpdate: 'tool_call_update',
              toolCallId,
              status: answer === 'once' || answer === 'always' ? 'completed' : 'failed',
            });
            await say(client, sessionId, `permission answer: ${answer}`);
          } else if (command === 'slow') {
            for (let i = 1; i <= Number(rest[0] ?? '50') && !signal.aborted; i++) {
              await say(client, sessionId, `Line ${i} of a long, slow reply.\n\n`);
              await sleep(Number(rest[1] ?? '40'), signal);
            }
          } else {
            await say(client, sessionId, `echo: ${text}`);
          }
        } finally {
          turns.delete(sessionId);
        }
        return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
      });
  };

  const acp = new AcpServer({ createAgent });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 8 * 1024 * 1024,
    handleProtocols: (protocols) => (protocols.has('acp.v1') ? 'acp.v1' : false),
  });
  const server: Server = createServer((_request, response) => response.writeHead(200).end('showcase peer'));
  server.on('upgrade', createNodeWebSocketUpgradeHandler(acp, wss as never));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/acp`,
    prompts,
    answers,
    sessions,
    async close() {
      await acp.close();
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
