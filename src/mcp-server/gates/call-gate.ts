/**
 * The gates' decisions, as verdicts: kill switch, exposure, act mode, target, origin (and
 * screenshots), in that order, for a call's tool, tab and destination. The call's path through
 * them, the confirmation and the audit is the gated server's (gated-server.ts). Also the "for this
 * site" grants, and the audit entry of a call to a tool the server does not have.
 */
import type { TabInfo } from '../browser-port';
import type { ToolSpec } from '../tool-spec';
import { originOf, siteOrigin } from './origin';
import { boundForAudit, redactArgs } from './redact';
import { REFUSALS } from './refusals';
import type { GateEnvironment, GateName } from './types';

export { REFUSALS } from './refusals';

/** "This tool on this site for this session" grants, kept in memory only. */
export class SessionGrants {
  readonly #grants = new Set<string>();
  #key(agent: string, server: string, tool: string, origin: string, destination = '') {
    return JSON.stringify([agent, server, tool, origin, destination]);
  }
  has(agent: string, server: string, tool: string, origin: string, destination?: string): boolean {
    return this.#grants.has(this.#key(agent, server, tool, origin, destination));
  }
  add(agent: string, server: string, tool: string, origin: string, destination?: string): void {
    this.#grants.add(this.#key(agent, server, tool, origin, destination));
  }
  clear(): void {
    this.#grants.clear();
  }
  get size(): number {
    return this.#grants.size;
  }
}

/** Where a call acts: in a tab or on a connector's site (both resolved as a tab), or on the tab set. */
const actsInPlace = (tool: Pick<ToolSpec, 'scope'>) => tool.scope !== 'tabs';

export interface Checked {
  tab: TabInfo | undefined;
  origin: string;
  destination: string | undefined;
}

export interface Verdict {
  refused?: { gate: GateName; text: string; url?: string };
  /** What the gates found so far: the audit records the origin of refused calls too. */
  checked: Checked;
}

export interface GateQuestion {
  tool: Pick<ToolSpec, 'effect' | 'scope' | 'capturesScreen'>;
  /** Whether the agent is still offered the server (browser access on, server not hidden). */
  exposed?: (() => boolean) | undefined;
  /** The tab the call would act in, for tools that act in place. */
  tab: TabInfo | undefined;
  /** Why the call would act in a tab that is not the caller's own (refused at the target gate). */
  notOwn?: string | undefined;
}

/** Gates 2–5 and the screenshot gate, in their order: the verdict, run before a confirmation and again after it. */
export async function checkGates(
  question: GateQuestion,
  env: GateEnvironment,
  destinationUrl: string | undefined,
): Promise<Verdict> {
  const checked: Checked = { tab: undefined, origin: '', destination: undefined };
  const refuse = (gate: GateName, text: string, url?: string): Verdict => ({
    refused: { gate, text, ...(url !== undefined ? { url } : {}) },
    checked,
  });
  const { tool } = question;
  if (destinationUrl !== undefined) checked.destination = originOf(destinationUrl);
  if (!actsInPlace(tool)) checked.origin = checked.destination ?? '';
  if (env.killed()) return refuse('kill-switch', REFUSALS.killSwitch);
  if (question.exposed && !question.exposed()) return refuse('exposure', REFUSALS.exposure);
  if (tool.effect === 'write' && !env.actMode()) return refuse('act-mode', REFUSALS.actMode);
  if (question.notOwn) return refuse('target', question.notOwn);
  if (actsInPlace(tool)) {
    checked.tab = question.tab;
    checked.origin = originOf(checked.tab?.url);
    if (!checked.tab || !siteOrigin(checked.tab.url)) return refuse('target', REFUSALS.noTab);
    const refusal = await env.originRefusal(checked.tab.url);
    if (refusal) return refuse('origin', refusal, checked.tab.url);
  }
  if (destinationUrl !== undefined) {
    const refusal = await env.originRefusal(destinationUrl);
    if (refusal) return refuse('origin', refusal, destinationUrl);
  }
  if (tool.capturesScreen) {
    const refusal = await env.captureRefusal();
    if (refusal) return refuse('screenshots', refusal);
  }
  return { checked };
}

/** A call to a tool the server does not have is refused at the first gate, and audited like any other. */
export function auditUnknownTool(
  env: GateEnvironment,
  agent: string,
  server: string,
  tool: string,
  rawArgs: Record<string, unknown> | undefined,
  text: string,
  gate: GateName = 'arguments',
): void {
  env.audit({
    time: env.now(),
    agent,
    server,
    tool,
    origin: '',
    args: boundForAudit(redactArgs(rawArgs ?? {}, { values: env.secretValues() })),
    outcome: `refused:${gate}`,
    detail: text,
    durationMs: 0,
  });
}
