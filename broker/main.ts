/**
 * `npm run broker`: the local broker on 127.0.0.1, fronting the demo agent or, with `--agent`, any
 * stdio ACP agent. Prints the panel's URL, the MCP URL and the token once; never logs the token.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import { hostIsLoopback } from './upgrade-policy';
import { startBroker, type RunningBroker } from './server';

export function freshToken(): string {
  return randomBytes(24).toString('base64url');
}

export const USAGE = `Usage: npm run broker -- [options]

  --agent "<command>"  front a stdio ACP agent (an agent CLI in ACP mode) instead of the demo agent
  --cwd <dir>          working directory for the agent's sessions (default: here)
  --port <n>           port on 127.0.0.1 (default 8765; 0 picks a free one)
  --token <t>          bearer token (default: TABWRIGHT_TOKEN, else a fresh one)
  --no-token           accept connections without a token (loopback only)
  --dialect a|b        tunnel dialect: a = OpenAB's contract (default), b = the ACP SDK binding
  --state <file>       keep sessions and delivered prompt ids across restarts
  --detached-ttl <min> minutes an agent process waits for its panel to come back (default 10)
  --host <name>        listen address (default 127.0.0.1; anything else needs a token)
  -h, --help           this text`;

export interface CliConfig {
  port: number;
  host: string;
  token: string;
  dialect: 'a' | 'b';
  stateFile: string | undefined;
  agentCommand: string | undefined;
  agentCwd: string | undefined;
  detachedAgentTtlMs: number | undefined;
}

/** The command line as broker options; throws with a message for the user on bad input. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliConfig | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      agent: { type: 'string' },
      cwd: { type: 'string' },
      port: { type: 'string', default: '8765' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'no-token': { type: 'boolean', default: false },
      dialect: { type: 'string', default: 'a' },
      state: { type: 'string' },
      'detached-ttl': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (values.dialect !== 'a' && values.dialect !== 'b') throw new Error('--dialect must be a or b');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be a port number');
  if (values.agent !== undefined && !values.agent.trim()) throw new Error('--agent needs a command');
  const token = values['no-token'] ? '' : (values.token ?? env.TABWRIGHT_TOKEN ?? freshToken()).trim();
  if (values.token !== undefined && !token) throw new Error('--token is empty (use --no-token to run without one)');
  if (/[^\x21-\x7e]|[()<>@,;:\\"/[\]?={}]/.test(token)) {
    throw new Error('The token travels in a WebSocket subprotocol: use letters, digits and - _ . ~ + only');
  }
  const ttl = values['detached-ttl'] === undefined ? undefined : Number(values['detached-ttl']);
  if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0 && ttl <= 7 * 24 * 60)) {
    throw new Error('--detached-ttl must be a number of minutes, more than 0 and at most a week');
  }
  if (!hostIsLoopback(values.host) && !token) throw new Error('Listening beyond loopback needs a token');
  return {
    port,
    host: values.host,
    token,
    dialect: values.dialect,
    stateFile: values.state,
    agentCommand: values.agent?.trim(),
    agentCwd: values.cwd,
    detachedAgentTtlMs: ttl === undefined ? undefined : Math.round(ttl * 60_000),
  };
}

export function banner(broker: RunningBroker, config: CliConfig): string {
  return [
    'Tabwright broker listening.',
    `  Agent:      ${config.agentCommand ?? 'the demo agent (type `help` in the panel)'}`,
    `  Broker URL: ${broker.url}   (paste into the panel)`,
    `  MCP URL:    ${broker.mcpUrl}   (for MCP clients; header Authorization: Bearer <token>)`,
    `  Token:      ${config.token || '(none)'}`,
    `  Dialect:    ${config.dialect === 'a' ? 'A (OpenAB tunnel)' : 'B (ACP SDK binding)'}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const config = parseCli(process.argv.slice(2));
  if (config === 'help') {
    console.log(USAGE);
    return;
  }
  const broker = await startBroker({
    port: config.port,
    host: config.host,
    token: config.token,
    dialect: config.dialect,
    stateFile: config.stateFile,
    agentCommand: config.agentCommand,
    agentCwd: config.agentCwd,
    ...(config.detachedAgentTtlMs !== undefined ? { detachedAgentTtlMs: config.detachedAgentTtlMs } : {}),
    version: pkg.version,
    log: (line) => console.log(`[broker] ${line}`),
  });
  console.log(banner(broker, config));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('[broker] shutting down');
    // A stuck agent must not keep the broker from exiting, but it is not a clean shutdown either.
    setTimeout(() => {
      console.error('[broker] shutdown took too long; exiting anyway');
      process.exit(1);
    }, 10_000).unref();
    void broker.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`[broker] shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(`broker: ${(error as Error).message}`);
    process.exit(1);
  });
}
