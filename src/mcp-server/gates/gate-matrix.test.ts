/**
 * Every browser tool in the registry × act mode on/off × site allowed or not × blocklisted or
 * not × the user's answer (allow, deny, timeout): the exact outcome, that the user was asked
 * exactly when a write passed the earlier gates, and that nothing ran for a refused call. The
 * tool list comes from the registry, so a new tool is covered the day it is added.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { browserToolServer } from '../browser-server';
import { fakeDownloads } from '../fake-downloads';
import { inputJsonSchema } from '../registry';
import { MemoryRefCounters, SnapshotService } from '../snapshot-service';
import type { BrowserTool } from '../tool';
import { browserTools } from '../tools';
import { Blocklist, SHIPPED_BLOCKLIST } from './blocklist';
import { SessionGrants } from './call-gate';
import { TabOwnership } from '../tab-ownership';
import { createGateEnvironment } from './environment';
import { fakeBrowser } from './fake-browser';
import type { AuditEntry, ConfirmAnswer, ConfirmRequest } from './types';

const WINDOW = 1;

interface Site {
  label: string;
  url: string;
  allowed: boolean;
  blocked: boolean;
}

/** Every combination of "on the allowed list" and "on the blocklist", with real blocklist entries. */
const SITES: Site[] = [
  { label: 'allowed', url: 'https://app.example/work', allowed: true, blocked: false },
  { label: 'not allowed', url: 'https://elsewhere.example/', allowed: false, blocked: false },
  { label: 'allowed but blocklisted', url: 'https://www.paypal.com/myaccount', allowed: true, blocked: true },
  { label: 'blocklisted, not allowed', url: 'https://console.aws.amazon.com/', allowed: false, blocked: true },
];

/** Valid arguments for a tool, built from its schema: every required field plus the target and destination fields it has. */
export function sampleArgs(tool: BrowserTool, url: string, tabId: number): Record<string, unknown> {
  const sample = (name: string, schema: Record<string, unknown>): unknown => {
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (schema.const !== undefined) return schema.const;
    const options = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
    if (options?.[0]) return sample(name, options[0]);
    switch (schema.type) {
      case 'string':
        return (
          { url, ref: 'e1', key: 'Enter', text: 'hello', value: 'hello', direction: 'back', contentBase64: 'aGVsbG8=' }[
            name
          ] ?? 'x'
        );
      case 'integer':
      case 'number':
        return name === 'tabId' ? tabId : Math.max(1, Number(schema.minimum ?? 1));
      case 'boolean':
        return false;
      case 'array':
        return [sample(name, (schema.items ?? {}) as Record<string, unknown>)];
      case 'object':
        return objectOf(schema);
      default:
        return 'x';
    }
  };
  const objectOf = (schema: Record<string, unknown>) => {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name) || ['ref', 'url', 'tabId'].includes(name)) out[name] = sample(name, property);
    }
    return out;
  };
  const args = objectOf(inputJsonSchema(tool.input));
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) throw new Error(`could not build arguments for ${tool.name}: ${z.prettifyError(parsed.error)}`);
  return args;
}

type Expected = { ran: true } | { ran: false; gate: string };

function expected(tool: BrowserTool, act: boolean, site: Site, answer: ConfirmAnswer): Expected {
  const write = tool.effect === 'write';
  const reachesSite = tool.scope === 'page' || tool.destination !== undefined;
  if (write && !act) return { ran: false, gate: 'act-mode' };
  if (reachesSite && (site.blocked || !site.allowed)) return { ran: false, gate: 'origin' };
  if (write && answer !== 'once') return { ran: false, gate: 'confirmation' };
  return { ran: true };
}

/**
 * Whose tabs the two tabs are: the agent works in the tab in front (`follows`), both are its own
 * and it works in tab 1 (`own`), or neither is its own — one is another agent's, one the person's
 * (`foreign`).
 */
type Tabs = 'follows' | 'own' | 'foreign';

/** A call in tabs that are not the caller's own: every tool that acts in or names such a tab is refused first. */
function expectedForeign(tool: BrowserTool, act: boolean, site: Site, answer: ConfirmAnswer): Expected {
  const write = tool.effect === 'write';
  if (write && !act) return { ran: false, gate: 'act-mode' };
  if (tool.scope === 'page' || tool.namedTab || tool.usesCurrentTab) return { ran: false, gate: 'target' };
  return expected(tool, act, site, answer);
}

async function runCase(tool: BrowserTool, act: boolean, site: Site, answer: ConfirmAnswer, tabs: Tabs = 'follows') {
  const browser = fakeBrowser([
    { id: 1, windowId: WINDOW, url: site.url, title: 'Secret title', active: true, loading: false },
    { id: 2, windowId: WINDOW, url: site.url, title: 'Other tab', active: false, loading: false },
  ]);
  const audit: AuditEntry[] = [];
  const asked: ConfirmRequest[] = [];
  // One download from the site under test, one from a site that is never allowed.
  const download = { state: 'complete', bytesReceived: 10, totalBytes: 10, startTime: 5 } as const;
  const downloads = fakeDownloads([
    { ...download, id: 1, filename: '/d/site-file.csv', url: site.url, finalUrl: site.url, referrer: site.url },
    {
      ...download,
      id: 2,
      filename: '/d/other-file.csv',
      url: 'https://other.example/f',
      finalUrl: 'https://other.example/f',
      referrer: 'https://other.example/',
    },
  ]);
  const gates = createGateEnvironment({
    killed: () => false,
    actMode: () => act,
    allowedSites: () => (site.allowed ? [new URL(site.url).origin] : []),
    screenshots: () => true,
    blocklist: () => new Blocklist(SHIPPED_BLOCKLIST),
    hasHostPermission: async () => true,
    hasAllUrls: async () => true,
    secretValues: () => [],
    confirm: async (request) => {
      asked.push(request);
      return answer;
    },
    audit: (entry) => audit.push(entry),
  });
  const server = browserToolServer({
    name: 'tabwright',
    version: '0',
    agentName: () => 'Agent',
    windowId: WINDOW,
    tools: browserTools,
    browser,
    snapshots: new SnapshotService(new MemoryRefCounters()),
    gates,
    grants: new SessionGrants(),
    downloads,
    ...(tabs === 'follows' ? {} : { ownership: ownershipFor(tabs), follows: () => false }),
  });
  const args = sampleArgs(tool, site.url, 2);
  const result = await server.call(`tabwright.${tool.name}`, args, {
    signal: new AbortController().signal,
    requestId: '1',
  });
  return { result, audit, asked, browser };
}

const ANSWERS: ConfirmAnswer[] = ['once', 'deny', 'timeout'];

function ownershipFor(tabs: 'own' | 'foreign'): TabOwnership {
  const ownership = new TabOwnership();
  if (tabs === 'own') {
    ownership.give(2, 'Agent');
    ownership.give(1, 'Agent');
  } else {
    ownership.give(2, 'Another agent');
  }
  return ownership;
}

describe('the gate matrix', () => {
  it('has tools to cover, and knows how every tool reaches a site', () => {
    expect(browserTools.length).toBeGreaterThan(0);
    for (const tool of browserTools) {
      const fields = Object.keys(inputJsonSchema(tool.input).properties ?? {});
      // A tool that takes a URL or a tab id must have its destination checked by the gate.
      if (fields.includes('url') || fields.includes('tabId'))
        expect(tool.destination, tool.name).toBeTypeOf('function');
    }
  });

  for (const tool of browserTools) {
    for (const act of [false, true]) {
      for (const site of SITES) {
        for (const answer of ANSWERS) {
          const want = expected(tool, act, site, answer);
          const title = `${tool.name} (${tool.effect}), act mode ${act ? 'on' : 'off'}, ${site.label}, user answers ${answer} → ${want.ran ? 'runs' : `refused by ${want.gate}`}`;
          it(title, async () => {
            const { result, audit, asked, browser } = await runCase(tool, act, site, answer);
            expect(audit).toHaveLength(1);
            const entry = audit[0]!;
            expect(entry).toMatchObject({ agent: 'Agent', server: 'tabwright', tool: tool.name });
            const wasAsked = tool.effect === 'write' && (want.ran || want.gate === 'confirmation');
            expect(asked).toHaveLength(wasAsked ? 1 : 0);
            if (want.ran) {
              expect(['ok', 'error']).toContain(entry.outcome);
              if (tool.name === 'tabs') {
                const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
                const visible = site.allowed && !site.blocked;
                expect(text.includes('Secret title')).toBe(visible);
                expect(text.includes(site.url)).toBe(visible);
                if (!visible) expect(text).toContain('(not allowed)');
              }
              if (tool.name === 'downloads') {
                const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
                expect(text.includes('site-file.csv')).toBe(site.allowed && !site.blocked);
                expect(text).not.toContain('other-file.csv');
              }
              if (tool.capturesScreen) expect(browser.effects).toContain('capture');
            } else {
              expect(entry.outcome).toBe(`refused:${want.gate}`);
              expect(result.isError).toBe(true);
              expect(browser.effects).toEqual([]);
              const allowedReads = want.gate === 'confirmation' ? ['inspectTargets'] : [];
              expect(browser.commands.filter((op) => !allowedReads.includes(op))).toEqual([]);
            }
          });
        }
      }
    }
  }

  // Ownership, for every tool: in its own tabs an agent meets the gates as above; in tabs that are
  // not its own it is refused before anything of them is read, and `tabs` does not name them.
  for (const tool of browserTools) {
    for (const tabs of ['own', 'foreign'] as const) {
      for (const act of [false, true]) {
        const site = SITES[0]!;
        const want = tabs === 'own' ? expected(tool, act, site, 'once') : expectedForeign(tool, act, site, 'once');
        const title = `${tool.name}, ${tabs === 'own' ? 'in its own tabs' : 'in tabs not its own'}, act mode ${act ? 'on' : 'off'} → ${want.ran ? 'runs' : `refused by ${want.gate}`}`;
        it(title, async () => {
          const { result, audit, browser } = await runCase(tool, act, site, 'once', tabs);
          expect(audit).toHaveLength(1);
          const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
          if (want.ran) {
            expect(['ok', 'error']).toContain(audit[0]!.outcome);
          } else {
            expect(audit[0]!.outcome).toBe(`refused:${want.gate}`);
            expect(browser.effects).toEqual([]);
            expect(browser.commands).toEqual([]);
          }
          if (tabs === 'foreign') {
            // Nothing of a tab that is not the caller's: no title, no address.
            expect(text).not.toContain('Secret title');
            expect(text).not.toContain('Other tab');
            // new_tab opens a tab of the caller's own at that address, which it may of course read.
            if (tool.name !== 'new_tab') expect(text).not.toContain(site.url);
            if (want.ran && tool.name === 'tabs') expect(text).toContain('2 other tabs are open, not shared with you');
            if (!want.ran && want.gate === 'target') expect(text).toMatch(/not shared with you|no tab of your own/);
          }
        });
      }
    }
  }
});
