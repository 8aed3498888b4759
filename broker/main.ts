/**
 * `npm run broker`: the local broker on 127.0.0.1 with the demo agent. Prints the URL and the
 * token to paste into the panel; never logs the token anywhere else.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import { startBroker } from './server';

export function freshToken(): string {
  return randomBytes(24).toString('base64url');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8765' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'no-token': { type: 'boolean', default: false },
      dialect: { type: 'string', default: 'a' },
      state: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(`Usage: npm run broker -- [--port 8765] [--token T | --no-token] [--dialect a|b] [--state file.json]`);
    return;
  }
  if (values.dialect !== 'a' && values.dialect !== 'b') throw new Error('--dialect must be a or b');
  const token = values['no-token'] ? '' : (values.token ?? process.env.TABWRIGHT_TOKEN ?? freshToken());
  const broker = await startBroker({
    port: Number(values.port),
    host: values.host,
    token,
    dialect: values.dialect,
    stateFile: values.state,
    version: pkg.version,
    log: (line) => console.log(`[broker] ${line}`),
  });
  console.log(`Tabwright broker listening.\n  Broker URL: ${broker.url}\n  Token:      ${token || '(none)'}`);
  const stop = () => {
    console.log('[broker] shutting down');
    void broker.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(`broker: ${(error as Error).message}`);
    process.exit(1);
  });
}
