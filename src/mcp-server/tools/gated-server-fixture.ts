/** A browser tool server over a fake browser on an allowed site, recording what the gates saw and sent. */
import type { PageCommand } from '../../page/protocol';
import type { DialogPort } from '../dialogs';
import { browserToolServer } from '../browser-server';
import { Blocklist, SHIPPED_BLOCKLIST } from '../gates/blocklist';
import { SessionGrants } from '../gates/call-gate';
import { createGateEnvironment } from '../gates/environment';
import { fakeBrowser, type FakeBrowser } from '../gates/fake-browser';
import type { AuditEntry, ConfirmRequest } from '../gates/types';
import { MemoryRefCounters, SnapshotService } from '../snapshot-service';
import { browserTools } from './index';

export const SITE = 'https://app.example/work';

export function gatedServer(
  options: { act?: boolean; allowed?: boolean; dialogs?: DialogPort; browser?: FakeBrowser } = {},
) {
  const browser =
    options.browser ?? fakeBrowser([{ id: 1, windowId: 1, url: SITE, title: 'Work', active: true, loading: false }]);
  const sent: Array<{ command: PageCommand; frameId: number }> = [];
  const send = browser.page.send.bind(browser.page);
  browser.page.send = (tabId, command, sendOptions) => {
    sent.push({ command, frameId: sendOptions.frameId });
    return send(tabId, command, sendOptions);
  };
  const audit: AuditEntry[] = [];
  const asked: ConfirmRequest[] = [];
  const gates = createGateEnvironment({
    killed: () => false,
    actMode: () => options.act ?? true,
    allowedSites: () => (options.allowed === false ? [] : [new URL(SITE).origin]),
    screenshots: () => false,
    blocklist: () => new Blocklist(SHIPPED_BLOCKLIST),
    hasHostPermission: async () => true,
    hasAllUrls: async () => true,
    secretValues: () => [],
    confirm: async (request) => {
      asked.push(request);
      return 'once';
    },
    audit: (entry) => audit.push(entry),
  });
  const server = browserToolServer({
    name: 'tabwright',
    version: '0',
    agentName: () => 'Agent',
    windowId: 1,
    tools: browserTools,
    browser,
    snapshots: new SnapshotService(new MemoryRefCounters()),
    gates,
    grants: new SessionGrants(),
    dialogs: options.dialogs,
  });
  const call = (tool: string, args: Record<string, unknown>) =>
    server.call(`tabwright.${tool}`, args, { signal: new AbortController().signal, requestId: '1' });
  return { call, browser, sent, audit, asked };
}

export const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? '').join('\n');
