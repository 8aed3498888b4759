/**
 * The perception e2e set-up: the built test extension in Chromium, its panel connected to an ACP
 * SDK peer, and tool calls made by that peer through the real tunnel (the ACP SDK binding), so each call
 * passes the gates exactly as an agent's would. Fixture pages come from `test/fixtures/perception/`.
 */
import type { Page } from 'playwright-core';
import { startSdkPeer, type SdkPeer } from '../peers/sdk-agent-peer';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  type Launched,
} from './harness';

export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  isError?: boolean;
}

export interface Perception {
  launched: Launched;
  fixtures: FixtureServer;
  peer: SdkPeer;
  panel: Page;
  /** Calls a browser tool through the tunnel. */
  call(tool: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a write tool and answers its confirmation with "Allow once". */
  callConfirmed(tool: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Opens a fixture page as the active tab. */
  open(path: string, origin?: string): Promise<Page>;
  allow(origin: string): Promise<void>;
  setActMode(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export function textOf(result: ToolResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

export async function startPerception(options: { dist?: string } = {}): Promise<Perception> {
  const peer = await startSdkPeer();
  const fixtures = await startFixtureServer();
  const launched = await launchWithExtension(options.dist);
  const panel = await openPanelTab(launched);
  if (process.env.PERCEPTION_DEBUG) panel.on('console', (message) => console.log(`[panel] ${message.text()}`));
  await addAgentThroughForm(panel, { name: 'Reader', url: peer.url, token: '' });
  await panel.getByRole('button', { name: /Reader: connected/ }).waitFor({ timeout: 30_000 });
  const settings = () => panel.getByRole('button', { name: 'Settings' }).click();

  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const [sessionId] = [...peer.declared.keys()];
    if (!sessionId) throw new Error('the panel opened no session');
    const index = peer.declared.get(sessionId)!.findIndex((server) => server.name === 'tabwright');
    const answer = (await peer.mcp(sessionId, Math.max(0, index), 'tools/call', {
      name: `tabwright.${tool}`,
      arguments: args,
    })) as { result?: ToolResult; error?: { message: string } };
    if (!answer.result) throw new Error(`tools/call ${tool} failed: ${JSON.stringify(answer.error ?? answer)}`);
    return answer.result;
  };

  return {
    launched,
    fixtures,
    peer,
    panel,
    call,
    async callConfirmed(tool, args = {}) {
      const pending = call(tool, args);
      const allow = panel.getByRole('button', { name: 'Allow once' });
      const answered = allow
        .first()
        .click({ timeout: 30_000 })
        .catch(() => undefined);
      const result = await pending;
      await answered;
      return result;
    },
    async open(path, origin = fixtures.allowed) {
      const page = await openActiveTab(launched, `${origin}${path}`);
      return page;
    },
    async allow(origin) {
      await settings();
      await allowSite(panel, origin);
      await settings();
    },
    async setActMode(on) {
      await settings();
      const toggle = panel.getByRole('switch', { name: 'Act mode' });
      if (on) await toggle.check();
      else await toggle.uncheck();
      await settings();
    },
    async close() {
      await launched.close();
      await peer.close();
      await fixtures.close();
    },
  };
}
