/**
 * Starting one agent process for the passthrough: spawn it, say `initialize` (bounded, and told
 * apart from a process that died on the way), and give it the client side it talks to — its
 * session updates and permission questions go to whichever panel holds its session now.
 */
import {
  client,
  type CreateElicitationResponse,
  type InitializeResponse,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk/unstable';
import { noteSetupUpdate } from './fronted-agent';
import { AgentProcess } from './agent-process';
import { MAX_METHOD_FRAME_BYTES } from '../src/contract/acp';
import type { BrokerSession } from './sessions';

/** One agent process and what it said about itself, bound to at most one broker session. */
export interface Running {
  readonly process: AgentProcess;
  readonly init: InitializeResponse;
  readonly binding: Binding;
}

export interface Binding {
  session: BrokerSession | undefined;
  /** Set while the agent replays a loaded session the panel already shows. */
  replaying: boolean;
  /** Set while the agent finishes a turn the panel was already told is cancelled: it is not shown. */
  finishingCancelled: boolean;
  /** How many replies (text, thoughts, tool calls, plans) the agent has sent for its session. */
  replies: number;
}

/** The updates that are a turn's reply, as opposed to news about the session. */
const REPLY_UPDATES = new Set(['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

export interface LaunchOptions {
  command: string;
  cwd: string;
  /** The agent's environment: the broker's own, without its token (see agentEnvironment). */
  env: NodeJS.ProcessEnv;
  version: string;
  redact(text: string): string;
  log(line: string): void;
  startTimeoutMs: number;
}

/** Where the broker's token may sit in its environment: `npm run broker` reads TABWRIGHT_TOKEN. */
const BROKER_TOKEN_VARIABLES = ['TABWRIGHT_TOKEN', 'TABWRIGHT_MCP_TOKEN'];

/**
 * The environment an agent is started with: the broker's, which carries the keys the agent needs,
 * less every variable that holds the broker's token. An agent reaches the panel's tools with its
 * session's credential alone.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv, token: string): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => !BROKER_TOKEN_VARIABLES.includes(name) && !(token && value === token),
    ),
  );
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
const ELICITATION_CANCELLED: CreateElicitationResponse = { action: 'cancel' };
const OVERSIZED_NOTE = '\n\n*(The agent sent an update over 1 MiB; the broker left it out.)*\n\n';

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The client side the agent sees; it relays to the panel bound to the process's session. */
function relayTo(binding: Binding, log: (line: string) => void) {
  return client({ name: 'tabwright-broker' })
    .onNotification('session/update', ({ params }) => {
      const session = binding.session;
      if (session) noteSetupUpdate(session, params.update);
      if (session && REPLY_UPDATES.has(params.update.sessionUpdate)) binding.replies++;
      if (!session || binding.replaying || binding.finishingCancelled) return;
      let relayed = { ...params, sessionId: session.id };
      // The panel refuses method frames over 1 MiB (OpenAB's limit); say so instead of losing the socket.
      if (Buffer.byteLength(JSON.stringify(relayed)) > MAX_METHOD_FRAME_BYTES - 512) {
        log(`dropped a ${params.update.sessionUpdate} update over 1 MiB`);
        relayed = {
          sessionId: session.id,
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: OVERSIZED_NOTE } },
        };
      }
      void session.client?.notify('session/update', relayed).catch(() => undefined);
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      const session = binding.session;
      if (!session?.client || binding.finishingCancelled) return CANCELLED;
      return session.client
        .request('session/request_permission', { ...params, sessionId: session.id }, { cancellationSignal: signal })
        .catch(() => CANCELLED);
    })
    .onRequest('elicitation/create', async ({ params, signal }) => {
      const session = binding.session;
      // A request-scoped elicitation names a request between the broker and the agent, which the
      // panel never saw: only session-scoped ones can be put to the user.
      if (!session?.client || binding.finishingCancelled || !('sessionId' in params)) return ELICITATION_CANCELLED;
      return session.client
        .request('elicitation/create', { ...params, sessionId: session.id }, { cancellationSignal: signal })
        .catch(() => ELICITATION_CANCELLED);
    })
    .onNotification('elicitation/complete', ({ params }) => {
      void binding.session?.client?.notify('elicitation/complete', params).catch(() => undefined);
    });
}

export async function launchAgent(options: LaunchOptions): Promise<Running> {
  const binding: Binding = { session: undefined, replaying: false, finishingCancelled: false, replies: 0 };
  const process = new AgentProcess({
    command: options.command,
    cwd: options.cwd,
    env: options.env,
    client: relayTo(binding, options.log),
    redact: options.redact,
    log: options.log,
  });
  options.log(`agent process ${String(process.pid)} started`);
  try {
    const init = await within(
      Promise.race([
        process.connection.agent.request('initialize', {
          protocolVersion: 1,
          // Agents list a terminal login only to clients that say they can show one; the panel
          // shows its command for the user to run.
          clientCapabilities: {
            fs: { readTextFile: false, writeTextFile: false },
            terminal: false,
            // Input requests are put to the user in the panel that holds the session.
            elicitation: { form: {}, url: {} },
            _meta: { 'terminal-auth': true },
          },
          clientInfo: { name: 'tabwright-broker', title: 'Tabwright local broker', version: options.version },
        }),
        process.exited.then(() => Promise.reject(new Error(process.describeExit()))),
      ]),
      options.startTimeoutMs,
      'The agent’s initialize',
    );
    return { process, init, binding };
  } catch (error) {
    // A write to a process that already died fails first (EPIPE); its exit says more.
    const ended = await process.endedWithin(1_000);
    await process.kill();
    const message = ended ? process.describeExit() : `${(error as Error).message}. ${process.describeExit()}`;
    throw new Error(message, { cause: error });
  }
}
