import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserToolsUnder } from '../contract/tool-manifest';
import { browserToolManifest } from './browser-tool-manifest';
import { ToolRegistry } from './registry';
import { browserTools } from './tools/index';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the browser tool manifest', () => {
  it('src/contract/tool-manifest.json is the registry’s listing (run `npm run manifest` after changing a tool)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'src/contract/tool-manifest.json'), 'utf8')) as unknown;
    expect(committed).toEqual(browserToolManifest());
  });

  it('lists under a server name exactly what the panel’s registry lists', () => {
    expect(browserToolsUnder('work')).toEqual(new ToolRegistry('work', browserTools).list());
  });
});
