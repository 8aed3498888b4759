/**
 * Every tool call passes the gates in the specified order: arguments, kill switch, act mode,
 * target, origin, confirmation — and every call, allowed or refused, is audited. Refusals are
 * results the model can read (`isError`), and nothing runs for a refused call.
 */
import type { z } from 'zod';
import type { TabInfo } from '../browser-port';
import { describeArgumentErrors } from '../registry';
import { errorResult, type CallToolResult } from '../response';
import { redactArgs } from './redact';
import type { AuditOutcome, GateEnvironment, GateName } from './types';

export interface GatedTool {
  name: string;
  input: z.ZodObject;
  /** Needs act mode and confirmation (write tools and destructive connector tools). */
  write: boolean;
  /** Needs a scriptable tab to act on. */
  needsPage: boolean;
}

export interface GatedCall {
  agentName: string;
  server: string;
  tool: GatedTool;
  rawArgs: Record<string, unknown> | undefined;
  signal: AbortSignal;
  /** The tab the call would act on (resolved only when the tool needs one). */
  resolveTab(): Promise<TabInfo | undefined>;
  /** Values that must be masked in the audit log (password fields this call targets). */
  secretTargets?(args: Record<string, unknown>): Promise<ReadonlySet<string>>;
  execute(args: Record<string, unknown>, tab: TabInfo | undefined): Promise<CallToolResult>;
}

/** "this tool on this site for this session" grants, kept in memory only. */
export class SessionGrants {
  readonly #grants = new Set<string>();
  #key(agent: string, server: string, tool: string, origin: string) {
    return JSON.stringify([agent, server, tool, origin]);
  }
  has(agent: string, server: string, tool: string, origin: string): boolean {
    return this.#grants.has(this.#key(agent, server, tool, origin));
  }
  add(agent: string, server: string, tool: string, origin: string): void {
    this.#grants.add(this.#key(agent, server, tool, origin));
  }
  clear(): void {
    this.#grants.clear();
  }
}

export function originOf(url: string | undefined): string {
  if (!url) return '';
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : `${parsed.protocol}//`;
  } catch {
    return '';
  }
}

export const REFUSALS = {
  killSwitch:
    'Refused: the user pressed "Disconnect all". Nothing runs until the user reconnects an agent. Do not retry.',
  actMode:
    'Refused: act mode is off, so Tabwright is read-only. Only the user can turn act mode on in Tabwright settings; ask them if this action is needed. Read tools still work.',
  noTab:
    'There is no web page to work on: the active tab is not an http(s) page. Open one with new_tab or navigate (if allowed), or ask the user to switch tabs.',
  denied: 'Refused: the user denied this action. Do not retry it; ask the user what they want instead.',
  timeout: 'Refused: the user did not confirm this action in time. Ask the user before trying again.',
} as const;

export async function runGated(call: GatedCall, env: GateEnvironment, grants: SessionGrants): Promise<CallToolResult> {
  const started = env.now();
  let origin = '';
  let auditArgs: Record<string, unknown> = redactArgs(call.rawArgs ?? {});
  const finish = (result: CallToolResult, outcome: AuditOutcome, detail?: string): CallToolResult => {
    env.audit({
      time: started,
      agent: call.agentName,
      server: call.server,
      tool: call.tool.name,
      origin,
      args: auditArgs,
      outcome,
      ...(detail ? { detail } : {}),
      durationMs: env.now() - started,
    });
    return result;
  };
  const refuse = (gate: GateName, text: string) => finish(errorResult(text), `refused:${gate}`, text);

  const parsed = call.tool.input.safeParse(call.rawArgs ?? {});
  if (!parsed.success) {
    return refuse(
      'arguments',
      `Invalid arguments for ${call.tool.name}: ${describeArgumentErrors(parsed.error)}. Nothing was done.`,
    );
  }
  const args = parsed.data as Record<string, unknown>;
  if (env.killed()) return refuse('kill-switch', REFUSALS.killSwitch);
  if (call.tool.write && !env.actMode()) return refuse('act-mode', REFUSALS.actMode);

  let tab: TabInfo | undefined;
  if (call.tool.needsPage) {
    tab = await call.resolveTab();
    origin = originOf(tab?.url);
    if (!tab || !/^https?:\/\//.test(origin)) return refuse('target', REFUSALS.noTab);
    const refusal = await env.originRefusal(tab.url);
    if (refusal) return refuse('origin', refusal);
    if (call.secretTargets) auditArgs = redactArgs(call.rawArgs ?? {}, await call.secretTargets(args));
  }

  if (call.tool.write && !grants.has(call.agentName, call.server, call.tool.name, origin)) {
    const answer = await env.confirm(
      { agentName: call.agentName, server: call.server, tool: call.tool.name, origin, args: auditArgs },
      call.signal,
    );
    if (answer === 'deny') return refuse('confirmation', REFUSALS.denied);
    if (answer === 'timeout') return refuse('confirmation', REFUSALS.timeout);
    if (answer === 'site') grants.add(call.agentName, call.server, call.tool.name, origin);
  }

  try {
    const result = await call.execute(args, tab);
    return finish(result, result.isError ? 'error' : 'ok');
  } catch (error) {
    const text = call.signal.aborted
      ? `The call was cancelled: ${String((call.signal.reason as Error)?.message ?? call.signal.reason)}.`
      : `The tool failed: ${(error as Error).message ?? String(error)}`;
    return finish(errorResult(text), 'error', text);
  }
}
