/** The shell command that runs the stdio test agent, as a user would pass it to `--agent`. */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const STDIO_AGENT = join(import.meta.dirname, 'stdio-agent.ts');

export function stdioAgentCommand(env: Record<string, string> = {}): string {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const assignments = Object.entries(env).map(([name, value]) => `${name}='${value.replace(/'/g, `'\\''`)}' `);
  return `${assignments.join('')}'${process.execPath}' --import '${loader}' '${STDIO_AGENT}'`;
}
