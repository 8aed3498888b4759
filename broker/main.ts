/**
 * `npm run broker`: the local broker on 127.0.0.1, fronting the demo agent or, with `--agent`, any
 * stdio ACP agent. Prints the panel's URL and the MCP URL; the token is kept across restarts in the
 * user's config directory and printed only when it is new. Never logs a token otherwise.
 */
import { parseArgs } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import { parseExtensionIds, TEST_BUILD_EXTENSION_ID } from './extension-ids';
import { startBroker, type RunningBroker } from './server';
import { keepToken, keptTokenPath } from './kept-token';
import { readTokenFile } from './token-file';
import { hostIsLoopback } from './upgrade-policy';

export const USAGE = `Usage: npm run broker -- [options]

  --agent "<command>"  front a stdio ACP agent (an agent CLI in ACP mode) instead of the demo agent
  --cwd <dir>          working directory for the agent's sessions (default: here)
  --port <n>           port on 127.0.0.1 (default 8765; 0 picks a free one)
  --token-file <path>  read the bearer token from a file only you can read (mode 0600)
  --token <t>          bearer token; visible to every local user in ps, prefer the two others
                       (default: --token-file, else TABWRIGHT_TOKEN, else the kept token: created
                       once in $XDG_CONFIG_HOME/tabwright/token or ~/.config/tabwright/token,
                       mode 0600, and the same on every start)
  --new-token          replace the kept token with a new one (saved agents need the new one)
  --no-token           run without a token: only the admitted extensions may connect, /mcp is
                       off, and --agent is refused (loopback only)
  --extension-id <id>  admit this extension (as chrome://extensions shows its id) besides the
                       test build; repeat it or give a comma list
  --dialect a|b        tunnel dialect: a = OpenAB's contract (default), b = the ACP SDK binding
  --state <file>       keep sessions and delivered prompt ids across restarts
  --detached-ttl <min> minutes an agent process waits for its panel to come back (default 10)
  --host <name>        listen address (default 127.0.0.1; anything else needs a token)
  -h, --help           this text`;

/**
 * Where the token came from: only a new one (created or rotated) is printed, the user already has
 * the others.
 */
export type TokenSource = 'created' | 'rotated' | 'kept' | 'file' | 'env' | 'argv' | 'none';

export interface CliConfig {
  port: number;
  host: string;
  token: string;
  tokenSource: TokenSource;
  /** The kept token's file, for the sources that use it. */
  tokenFile: string | undefined;
  extensionIds: string[];
  /** Said on stderr before the broker starts. */
  warnings: string[];
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
      'token-file': { type: 'string' },
      'no-token': { type: 'boolean', default: false },
      'new-token': { type: 'boolean', default: false },
      'extension-id': { type: 'string', multiple: true, default: [] },
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
  const extensionIds = parseExtensionIds(values['extension-id']);
  const ttl = values['detached-ttl'] === undefined ? undefined : Number(values['detached-ttl']);
  if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0 && ttl <= 7 * 24 * 60)) {
    throw new Error('--detached-ttl must be a number of minutes, more than 0 and at most a week');
  }
  // Last, once everything else is valid: the kept token may be created on disk.
  const { token, source, file } = chooseToken(values, env);
  if (/[^\x21-\x7e]|[()<>@,;:\\"/[\]?={}]/.test(token)) {
    throw new Error('The token travels in a WebSocket subprotocol: use letters, digits and - _ . ~ + only');
  }
  if (!hostIsLoopback(values.host) && !token) throw new Error('Listening beyond loopback needs a token');
  if (!token && values.agent !== undefined) {
    throw new Error(
      '--no-token cannot front an --agent: without a token any program on this machine could drive the agent. ' +
        'Give the broker a token (--token-file <path> or TABWRIGHT_TOKEN)',
    );
  }
  const warnings =
    source === 'argv'
      ? [
          '--token puts the token on the command line, where every user of this machine can read it (ps). ' +
            'Prefer --token-file <path> (mode 0600) or the TABWRIGHT_TOKEN environment variable.',
        ]
      : [];
  return {
    port,
    host: values.host,
    token,
    tokenSource: source,
    tokenFile: file,
    extensionIds,
    warnings,
    dialect: values.dialect,
    stateFile: values.state,
    agentCommand: values.agent?.trim(),
    agentCwd: values.cwd,
    detachedAgentTtlMs: ttl === undefined ? undefined : Math.round(ttl * 60_000),
  };
}

function chooseToken(
  values: { token?: string; 'token-file'?: string; 'no-token': boolean; 'new-token': boolean },
  env: NodeJS.ProcessEnv,
): { token: string; source: TokenSource; file?: string } {
  const chosen = [values.token !== undefined && '--token', values['token-file'] !== undefined && '--token-file'].filter(
    Boolean,
  );
  if (values['no-token'] && values['new-token']) throw new Error('--no-token and --new-token contradict each other');
  if (values['no-token'] && chosen.length) throw new Error(`--no-token and ${chosen[0]} contradict each other`);
  if (chosen.length > 1) throw new Error('Give the token one way: --token-file or --token, not both');
  if (values['new-token'] && chosen.length) {
    throw new Error(`--new-token replaces the kept token, but ${chosen[0]} gives one: drop one of them`);
  }
  if (values['no-token']) return { token: '', source: 'none' };
  if (values['token-file'] !== undefined) return { token: readTokenFile(values['token-file']), source: 'file' };
  if (values.token !== undefined) {
    const token = values.token.trim();
    if (!token) throw new Error('--token is empty (use --no-token to run without one)');
    return { token, source: 'argv' };
  }
  if (env.TABWRIGHT_TOKEN !== undefined) {
    if (values['new-token']) {
      throw new Error(
        '--new-token replaces the kept token, but TABWRIGHT_TOKEN gives one: unset it or drop --new-token',
      );
    }
    const token = env.TABWRIGHT_TOKEN.trim();
    if (!token) throw new Error('TABWRIGHT_TOKEN is empty (unset it to use the kept token, or use --no-token)');
    return { token, source: 'env' };
  }
  const kept = keepToken(keptTokenPath(env), { rotate: values['new-token'] });
  return { token: kept.token, source: kept.how, file: kept.path };
}

const TOKEN_LINE: Record<TokenSource, (token: string, file: string) => string> = {
  created: (token, file) => `${token}   (new; kept in ${file} for the next starts)`,
  rotated: (token, file) => `${token}   (new: --new-token replaced the one in ${file}; paste it into saved agents)`,
  kept: (_, file) => `(kept in ${file}, the same as before)`,
  file: () => '(read from --token-file)',
  env: () => '(from TABWRIGHT_TOKEN)',
  argv: () => '(given with --token)',
  none: () => '(none: only the admitted extensions may connect)',
};

export function banner(broker: RunningBroker, config: CliConfig): string {
  const extensions = [`${TEST_BUILD_EXTENSION_ID} (test build)`, ...config.extensionIds].join(', ');
  return [
    'Tabwright broker listening.',
    `  Agent:      ${config.agentCommand ?? 'the demo agent (type `help` in the panel)'}`,
    `  Broker URL: ${broker.url}   (paste into the panel)`,
    config.token
      ? `  MCP URL:    ${broker.mcpUrl}   (for MCP clients; header Authorization: Bearer <token>)`
      : '  MCP URL:    (off: the broker runs without a token)',
    `  Token:      ${TOKEN_LINE[config.tokenSource](config.token, config.tokenFile ?? '')}`,
    `  Extensions: ${extensions}`,
    `  Dialect:    ${config.dialect === 'a' ? 'A (OpenAB tunnel)' : 'B (ACP SDK binding)'}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const config = parseCli(process.argv.slice(2));
  if (config === 'help') {
    console.log(USAGE);
    return;
  }
  for (const warning of config.warnings) console.error(`broker: warning: ${warning}`);
  const broker = await startBroker({
    port: config.port,
    host: config.host,
    token: config.token,
    extensionIds: config.extensionIds,
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
