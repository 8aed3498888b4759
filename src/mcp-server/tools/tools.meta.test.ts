/**
 * Keeps the tool registry honest: every tool module in this folder is registered, every tool is
 * titled, described (each argument too) and annotated from its spec, and — since the gate matrix
 * walks the same registry — covered by the gate matrix the day it is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputJsonSchema, ToolRegistry } from '../registry';
import { browserTools } from './index';

const HERE = import.meta.dirname;
const toolModules = readdirSync(HERE).filter(
  (file) =>
    file.endsWith('.ts') && !file.endsWith('.test.ts') && /defineTool\(/.test(readFileSync(join(HERE, file), 'utf8')),
);

describe('the browser tool registry', () => {
  it('registers every tool module in the folder, once', async () => {
    const registered = new Set(browserTools);
    expect(registered.size).toBe(browserTools.length);
    for (const file of toolModules) {
      const module = (await import(`./${file.replace(/\.ts$/, '')}`)) as Record<string, unknown>;
      const tools = Object.values(module).filter((value) => browserTools.includes(value as never));
      expect(tools.length, `${file} defines a tool that tools/index.ts does not list`).toBeGreaterThan(0);
    }
    expect(toolModules.length).toBe(browserTools.length);
  });

  for (const tool of browserTools) {
    it(`${tool.name}: titled, described, every argument described, annotated from its spec`, () => {
      expect(tool.name).toMatch(/^[a-z][a-z_]*$/);
      expect(tool.title.trim().length).toBeGreaterThan(2);
      expect(tool.description.length).toBeGreaterThan(40);
      const schema = inputJsonSchema(tool.input) as {
        properties?: Record<string, { description?: string; properties?: Record<string, unknown> }>;
      };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${name} has no .describe()`).toBeTruthy();
      }
      const [listing] = new ToolRegistry('tabwright', [tool]).list();
      expect(listing).toMatchObject({
        name: `tabwright.${tool.name}`,
        title: tool.title,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.effect === 'read',
          destructiveHint: tool.effect === 'write',
        },
      });
      // A tool that takes an address or names a tab declares where it leads, for the gates.
      const fields = Object.keys(schema.properties ?? {});
      if (fields.includes('url') || fields.includes('tabId')) expect(tool.destination).toBeTypeOf('function');
      // A tool that types text into a page element declares where, so password values are masked.
      if (fields.includes('text') && (fields.includes('ref') || fields.includes('selector')) && tool.effect === 'write')
        expect(tool.typedInto).toBeTypeOf('function');
      // A tool that takes an element by ref takes it by role and name too, looked up before it runs.
      if (fields.includes('ref')) expect(fields).toContain('target');
      if (schema.properties?.target?.properties?.nth) expect(tool.resolvesTargets).toBe(true);
    });
  }
});
