/** Keeps the built-in connectors honest: registered, described, documented and tested end to end. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../mcp-server/registry';
import { connectorToolSpec } from '../connector-server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineConnector } from '../sdk';
import { builtinConnectors } from './index';

const ROOT = join(import.meta.dirname, '../../..');
const docs = readFileSync(join(ROOT, 'docs/connectors.md'), 'utf8');

describe('built-in connectors', () => {
  it('every connector file is registered once, under its file name', () => {
    const files = readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    expect(builtinConnectors.map((c) => c.id).sort()).toEqual(files.sort());
  });

  for (const connector of builtinConnectors) {
    describe(connector.id, () => {
      it('is a code connector with a summary and sign-in signs', () => {
        expect(connector.kind).toBe('code');
        expect(connector.summary).toBeTruthy();
        expect(connector.siteExample).toMatch(/^https:\/\/[a-z]+\.example\.com\//);
        expect(connector.auth?.signInPath).toBeDefined();
      });
      it('documents every tool in docs/connectors.md', () => {
        for (const tool of Object.keys(connector.tools)) expect(docs).toContain(`\`${tool}\``);
        expect(docs).toContain(`\`${connector.id}\``);
      });
      it("declares the shape of every tool's answer, listed as its outputSchema, and titles every tool", () => {
        const listings = new ToolRegistry(
          connector.id,
          Object.entries(connector.tools).map(([name, tool]) => connectorToolSpec(name, tool)),
        ).list();
        for (const [name, tool] of Object.entries(connector.tools)) {
          expect(tool.output, `${connector.id}.${name} has no output schema`).toBeDefined();
          const listing = listings.find((l) => l.name === `${connector.id}.${name}`)!;
          expect(listing.outputSchema).toMatchObject({ type: 'object' });
          expect(listing.title).toBeTruthy();
        }
      });
      it('has an end-to-end test against the real app', () => {
        const file = join(ROOT, `test/e2e/connectors-${connector.id}.e2e.ts`);
        expect(existsSync(file)).toBe(true);
      });
    });
  }
});

describe('defineConnector', () => {
  const base = {
    id: 'ok',
    name: 'OK',
    version: '1.0.0',
    matches: ['https://ok.example/*'],
    healthCheck: async () => true,
  };
  const tool = {
    description: 'A tool',
    input: z.object({ n: z.number().describe('A number') }),
    destructive: false,
    run: async () => ({ data: {} }),
  };
  it('accepts a well-formed connector', () => {
    expect(defineConnector({ ...base, tools: { read: tool } }).kind).toBe('code');
  });
  it('refuses bad ids, tool names, missing descriptions and undescribed fields', () => {
    expect(() => defineConnector({ ...base, id: 'Bad', tools: { read: tool } })).toThrow('Connector id');
    expect(() => defineConnector({ ...base, tools: { ReadIt: tool } })).toThrow('snake_case');
    expect(() => defineConnector({ ...base, tools: { read: { ...tool, description: ' ' } } })).toThrow(
      'no description',
    );
    expect(() =>
      defineConnector({ ...base, tools: { read: { ...tool, input: z.object({ n: z.number() }) } } }),
    ).toThrow('input field "n" needs .describe()');
    expect(() => defineConnector({ ...base, tools: {} })).toThrow('has no tools');
  });
});
