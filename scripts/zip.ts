/**
 * Packs the release build (`dist/`) with the licence and third-party notices into
 * `release/tabwright-<version>.zip`.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import pkg from '../package.json' with { type: 'json' };
import { thirdPartyNotices } from './notices';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

function collect(directory: string, into: Zippable): void {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) collect(path, into);
    else if (!name.endsWith('.map')) into[relative(dist, path)] = readFileSync(path);
  }
}

const files: Zippable = {};
collect(dist, files);
if (!files['manifest.json']) throw new Error('dist/ has no manifest.json: run npm run build first');
const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'] as Uint8Array)) as {
  key?: string;
  version: string;
};
if (manifest.key) throw new Error('dist/ carries a key: that is the test build shape, not a release');
files['LICENSE'] = readFileSync(join(root, 'LICENSE'));
files['THIRD_PARTY_NOTICES.txt'] = new TextEncoder().encode(thirdPartyNotices());
mkdirSync(join(root, 'release'), { recursive: true });
const out = join(root, 'release', `tabwright-${pkg.version}.zip`);
writeFileSync(out, zipSync(files, { level: 9 }));
console.log(`${out} (${Object.keys(files).length} files)`);
