/**
 * Runs the project's broker as a separate process that tests can kill. The broker is compiled once
 * per run (module by module, so every module keeps its own URL) and each start is then plain Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'node_modules/.cache/broker-child');
let built: Promise<string> | undefined;

export function buildBrokerChild(): Promise<string> {
  built ??= build({
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    root: ROOT,
    build: {
      ssr: 'test/integration/broker-child.ts',
      outDir: OUT,
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: { output: { preserveModules: true, preserveModulesRoot: ROOT } },
    },
  }).then(() => join(OUT, 'test/integration/broker-child.js'));
  return built;
}

export async function startBrokerProcess(port: number, token: string, stateFile: string): Promise<ChildProcess> {
  const entry = await buildBrokerChild();
  const child = spawn(process.execPath, [entry, String(port), token, stateFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('listening')) resolvePromise(child);
    });
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    child.once('exit', (code) => {
      reject(new Error(`broker exited (${code}): ${output}`));
      if (code !== null && process.env.DEBUG_BROKER) console.error(`broker child exited ${code}: ${output}`);
    });
  });
}

export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}
