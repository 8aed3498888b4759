/** Writes src/contract/tool-manifest.json from the browser tools' registry (`npm run manifest`). */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserToolManifest } from '../src/mcp-server/browser-tool-manifest';

const target = join(import.meta.dirname, '..', 'src', 'contract', 'tool-manifest.json');
const manifest = browserToolManifest();
let current: unknown;
try {
  current = JSON.parse(readFileSync(target, 'utf8'));
} catch {
  current = undefined;
}
// Rewritten only when the tools changed, so a build leaves an up-to-date tree untouched.
if (JSON.stringify(current) !== JSON.stringify(manifest)) {
  writeFileSync(target, JSON.stringify(manifest, null, 2));
  execFileSync('npx', ['prettier', '--write', target], { stdio: 'ignore' });
  console.log(`wrote ${target}`);
}
