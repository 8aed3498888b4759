/**
 * The demo agent as a fronted agent: its turns run in the broker, stream markdown to the session's
 * panel, show each tool call as a card and reach the panel's tools through the tunnel.
 */
import { randomUUID } from 'node:crypto';
import type { ContentBlock, PermissionOption, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { demoSlashCommands, runDemoTurn, type TurnIO } from './demo-agent';
import type { AgentIdentity, FrontedAgent } from './fronted-agent';
import { textOf, type CallToolResult, type PanelServer } from './panel-tools';
import type { BrokerSession } from './sessions';

export interface DemoAgentOptions {
  version: string;
  /** Delay between streamed chunks, so a reply streams like a model's. */
  chunkDelayMs: number;
}

async function sendUpdate(session: BrokerSession, update: SessionUpdate): Promise<void> {
  await session.client?.notify('session/update', { sessionId: session.id, update }).catch(() => undefined);
}

function offerCommands(session: BrokerSession): Promise<void> {
  return sendUpdate(session, { sessionUpdate: 'available_commands_update', availableCommands: demoSlashCommands() });
}

function turnIO(session: BrokerSession, signal: AbortSignal, chunkDelayMs: number): TurnIO {
  const toolCard = async (title: string, rawInput: unknown, status: 'pending' | 'in_progress') => {
    const toolCallId = randomUUID();
    await sendUpdate(session, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'other', status, rawInput });
    return toolCallId;
  };
  const finish = (toolCallId: string, ok: boolean, text: string) =>
    sendUpdate(session, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: ok ? 'completed' : 'failed',
      content: [{ type: 'content', content: { type: 'text', text: text.slice(0, 4_000) } }],
    });
  return {
    signal,
    say: async (markdown) => {
      for (const chunk of markdown.match(/[\s\S]{1,24}/g) ?? []) {
        if (signal.aborted) return;
        await sendUpdate(session, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } });
        if (chunkDelayMs > 0) await new Promise((r) => setTimeout(r, chunkDelayMs));
      }
    },
    browser: () => session.servers.find((server) => server.name === session.browserName) ?? session.servers[0],
    servers: () => session.servers,
    callTool: async (server: PanelServer, tool: string, args: Record<string, unknown>): Promise<CallToolResult> => {
      const toolCallId = await toolCard(tool, args, 'in_progress');
      try {
        const result = await server.call(tool, args, signal);
        await finish(toolCallId, !result.isError, textOf(result));
        return result;
      } catch (error) {
        const message = (error as Error).message;
        await finish(toolCallId, false, message);
        return { isError: true, content: [{ type: 'text', text: message }] };
      }
    },
    ask: async (title: string, options: PermissionOption[]) => {
      const client = session.client;
      if (!client) return { outcome: { outcome: 'cancelled' } };
      const toolCallId = await toolCard(title, undefined, 'pending');
      const answer = await client
        .request(
          'session/request_permission',
          { sessionId: session.id, toolCall: { toolCallId, title, kind: 'other', status: 'pending' }, options },
          { cancellationSignal: signal },
        )
        .catch(() => ({ outcome: { outcome: 'cancelled' as const } }));
      const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      await finish(toolCallId, answer.outcome.outcome === 'selected', `Answer: ${chosen}`);
      return answer;
    },
  };
}

export function demoAgent(options: DemoAgentOptions): FrontedAgent {
  const identity: AgentIdentity = {
    agentInfo: { name: 'tabwright-demo-agent', title: 'Tabwright demo agent', version: options.version },
    promptCapabilities: { embeddedContext: false, image: false, audio: false },
  };
  return {
    describe: async () => identity,
    // Its commands are offered as slash commands once the panel has the session's id (a
    // notification sent before the session's answer would name a session it does not know yet).
    start: async (session) => void setTimeout(() => void offerCommands(session), 0),
    restore: async (session) => void setTimeout(() => void offerCommands(session), 0),
    discard: async () => undefined,
    async prompt(session, prompt: ContentBlock[], signal) {
      const text = prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
      await runDemoTurn(text, turnIO(session, signal, options.chunkDelayMs));
      return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
    },
    close: async () => undefined,
  };
}
