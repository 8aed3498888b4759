/**
 * Playwright MCP as a contender in the tasks bench: @playwright/mcp over stdio, driving a Chromium
 * (/usr/bin/chromium, the same build as Tabwright's) that the bench starts with a DevTools port, so
 * the bench reads that page's state the same way. Its action answers link to the snapshot file they
 * wrote; the adapter hands those files' text back as `linked`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from '../test/e2e/harness';
import {
  describeTarget,
  type Adapter,
  type Handle,
  type Step,
  type TaskFile,
  type ToolCall,
} from '../test/e2e/tasks-plan';

const PLAYWRIGHT_MCP = join(ROOT, 'node_modules/@playwright/mcp/cli.js');

interface McpAnswer {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** Ends a process and waits (bounded) until it has exited, so it no longer writes its profile. */
async function stopProcess(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** Chromium with a DevTools port, for Playwright MCP to drive and the bench to read. */
async function chromiumWithDevTools(profile: string): Promise<{ endpoint: string; process: ChildProcess }> {
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1100,800',
      ...CHROMIUM_ARGS,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools address:\n${seen}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const address = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}):\n${seen}`)));
  });
  return { endpoint, process: child };
}

/**
 * A ref, or for a line read without one a role selector: browser_click's `target` takes "a unique
 * element selector" too, and Playwright's `internal:role=…[name="…"s]` matches the role and the
 * whole accessible name, through open shadow roots, as its snapshot prints them.
 */
function targetOf(handle: Handle): string {
  if ('ref' in handle) return handle.ref;
  return `internal:role=${handle.target.role}[name=${JSON.stringify(handle.target.name)}s]`;
}

function playwrightCalls(step: Step, on: string, to: string | undefined, pathsOf: (files: TaskFile[]) => string[]) {
  const element = describeTarget(step.on);
  const click: ToolCall = { tool: 'browser_click', args: { element, target: on } };
  switch (step.do) {
    case 'hover':
      return [{ tool: 'browser_hover', args: { element, target: on } }];
    case 'click':
      if (step.double) return [{ tool: 'browser_click', args: { element, target: on, doubleClick: true } }];
      return step.dialog ? [click, { tool: 'browser_handle_dialog', args: { ...step.dialog } }] : [click];
    case 'type':
      return [
        {
          tool: 'browser_type',
          args: { element, target: on, text: step.text, ...(step.submit ? { submit: true } : {}) },
        },
      ];
    case 'select_option':
      return [{ tool: 'browser_select_option', args: { element, target: on, values: [step.label] } }];
    case 'press_key':
      return [click, { tool: 'browser_press_key', args: { key: step.key } }];
    case 'drag':
      return [
        {
          tool: 'browser_drag',
          args: { startElement: element, startTarget: on, endElement: describeTarget(step.to), endTarget: to },
        },
      ];
    case 'upload_file':
      return [click, { tool: 'browser_file_upload', args: { paths: pathsOf(step.files) } }];
  }
}

export interface PlaywrightMcp extends Adapter {
  shutdown(): Promise<void>;
}

export async function playwrightMcp(): Promise<PlaywrightMcp> {
  const scratch = mkdtempSync(join(tmpdir(), 'tabwright-tasks-playwright-'));
  const files = join(scratch, 'files');
  mkdirSync(files);
  const browserProcess = await chromiumWithDevTools(join(scratch, 'profile'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      PLAYWRIGHT_MCP,
      '--cdp-endpoint',
      browserProcess.endpoint,
      // The task files live outside its workspace (the scratch directory's own folder).
      '--allow-unrestricted-file-access',
      '--output-dir',
      join(scratch, 'output'),
    ],
    cwd: scratch,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tabwright-tasks-bench', version: '1.0.0' });
  await client.connect(transport);
  const browser: Browser = await chromium.connectOverCDP(browserProcess.endpoint);
  const context: BrowserContext = browser.contexts()[0]!;
  // A Playwright client with no dialog listener dismisses dialogs itself: this one only watches,
  // so Playwright MCP's browser_handle_dialog answers them.
  context.on('dialog', () => undefined);
  // An action's answer links to the page snapshot it wrote (relative to the working directory).
  const linked = (text: string) =>
    [...text.matchAll(/\[Snapshot\]\(([^)\s]+)\)/g)].map(([, path]) => readFileSync(resolve(scratch, path!), 'utf8'));
  const raw = async (tool: string, args: Record<string, unknown>) => {
    const answer = (await client.callTool({ name: tool, arguments: args })) as McpAnswer;
    const text = (answer.content ?? []).map((block) => block.text ?? '').join('\n');
    return { text, isError: answer.isError === true || text.startsWith('### Error'), linked: linked(text) };
  };
  const pathsOf = (list: TaskFile[]) =>
    list.map((file) => {
      const path = join(files, file.name);
      writeFileSync(path, file.text);
      return path;
    });
  return {
    label: 'Playwright MCP',
    async open(url) {
      const opened = await raw('browser_navigate', { url });
      if (opened.isError) throw new Error(`browser_navigate failed: ${opened.text}`);
      for (let waited = 0; waited < 10_000; waited += 50) {
        const page = context.pages().find((candidate) => candidate.url() === url);
        if (page) return page;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no page at ${url}`);
    },
    call: ({ tool, args }) => raw(tool, args),
    read: () => ({ tool: 'browser_snapshot', args: {} }),
    find: (target) => ({ tool: 'browser_find', args: { text: target.name } }),
    actsByTarget: true,
    act: (step, refs) => playwrightCalls(step, targetOf(refs.on), refs.to && targetOf(refs.to), pathsOf),
    async recover() {
      await raw('browser_handle_dialog', { accept: false }).catch(() => undefined);
      await raw('browser_file_upload', {}).catch(() => undefined);
    },
    close: async () => undefined,
    async shutdown() {
      await client.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await stopProcess(browserProcess.process, 10_000);
      try {
        rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (error) {
        // A helper process of Chromium's may outlive it and still write there: the results stand.
        console.warn(`Could not remove ${scratch}: ${(error as Error).message}`);
      }
    },
  };
}
