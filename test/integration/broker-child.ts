/**
 * Entry of a broker child process for restart tests: bundled once per run so each restart takes
 * milliseconds, not a TypeScript compile. Arguments: port, token, state file.
 */
import { startBroker } from '../../broker/server';

const [port, token, stateFile] = process.argv.slice(2);
const broker = await startBroker({ port: Number(port), token: token!, stateFile, chunkDelayMs: 2 });
console.log(`listening on ${broker.url}`);
process.on('SIGTERM', () => void broker.close().then(() => process.exit(0)));
