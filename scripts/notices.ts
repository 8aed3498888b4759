/** Licence texts of the npm packages bundled into the extension (and what they pull in), for the release zip. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** Runtime dependencies that end up in the extension bundle (the broker's stay in Node). */
export const BUNDLED = [
  '@agentclientprotocol/sdk',
  'zod',
  'dom-accessibility-api',
  'markdown-it',
  'dompurify',
  'highlight.js',
];

interface Meta {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
}

function meta(name: string): Meta & { directory: string } {
  const directory = join(root, 'node_modules', name);
  return { ...(JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Meta), directory };
}

export function bundledPackages(): Array<Meta & { directory: string }> {
  const seen = new Map<string, Meta & { directory: string }>();
  const visit = (name: string) => {
    if (seen.has(name) || !existsSync(join(root, 'node_modules', name, 'package.json'))) return;
    const entry = meta(name);
    seen.set(name, entry);
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(dependency);
  };
  BUNDLED.forEach(visit);
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function thirdPartyNotices(): string {
  const sections = ['Tabwright bundles the following third-party software.\n'];
  for (const entry of bundledPackages()) {
    const licenceFile = readdirSync(entry.directory).find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licenceFile
      ? readFileSync(join(entry.directory, licenceFile), 'utf8')
      : `License: ${entry.license ?? 'see the package'}`;
    const rule = '='.repeat(72);
    sections.push(`${rule}\n${entry.name} ${entry.version} (${entry.license ?? 'unknown'})\n${rule}\n${text.trim()}\n`);
  }
  return sections.join('\n');
}
