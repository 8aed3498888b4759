/**
 * Every tool call passes the gates in the specified order: arguments, kill switch, exposure, act
 * mode, target, origin (and screenshots), confirmation — and every call, allowed or refused, is
 * audited. Refusals are results the model can read (`isError`), and nothing runs for a refused
 * call. A confirmation only covers what the user saw: if the page moved, the switch was pulled or
 * a setting changed while the card was up, the call is refused after all.
 */
import type { TabInfo } from '../browser-port';
import { describeArgumentErrors } from '../registry';
import { errorResult, type CallToolResult } from '../response';
import { originOf, siteOrigin } from './origin';
import type { ElementTargetArg, TabLookup, ToolSpec } from '../tool-spec';
import { elementTargets, targetKey, type TargetReport } from './inspect-targets';
import { boundForAudit, redactArgs, scrubResult, secretValuesIn } from './redact';
import { REFUSALS } from './refusals';
import type { AuditOutcome, ConfirmRequest, ConfirmTarget, GateEnvironment, GateName } from './types';

export { REFUSALS } from './refusals';

/** The facts of a tool the gates check, read straight from its spec. */
export type GatedTool = Pick<ToolSpec, 'name' | 'input' | 'effect' | 'scope' | 'capturesScreen' | 'contentArgs'> & {
  /** A write the user confirms on every call: no "for this site" grant is offered or honoured. */
  alwaysConfirm?: boolean;
  destination?(args: Record<string, unknown>, tabs: TabLookup): Promise<string | undefined>;
  typedInto?(args: Record<string, unknown>): ElementTargetArg[];
};

export interface GatedCall {
  agentName: string;
  server: string;
  tool: GatedTool;
  rawArgs: Record<string, unknown> | undefined;
  signal: AbortSignal;
  /** Whether the agent is still offered this server (browser access on, server not hidden). */
  exposed?(): boolean;
  /** The tab the call would act on (resolved only for tools that work in a page or on a site). */
  resolveTab(): Promise<TabInfo | undefined>;
  /** Looks up tabs named by id, for the tool's `destination`. */
  tabs?: TabLookup;
  /**
   * Asks `tab` which of `typed` (the tool's `typedInto`) are secret fields and, when `describe`
   * (the user is about to be asked), what every element target among the arguments is.
   */
  inspectTargets?(
    args: Record<string, unknown>,
    typed: ElementTargetArg[],
    tab: TabInfo,
    describe: boolean,
  ): Promise<TargetReport>;
  /**
   * Why `tab` cannot take page commands now (the user's own dialog holds it), or undefined. Asked
   * once the gates allow the tab, before its page is inspected, and again before the user is asked
   * when the page could not be inspected.
   */
  unavailable?(tab: TabInfo): Promise<string | undefined>;
  execute(args: Record<string, unknown>, tab: TabInfo | undefined): Promise<CallToolResult>;
}

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

const targetKeys = (targets: ElementTargetArg[]): ReadonlySet<string> =>
  new Set(targets.map((target) => ('ref' in target ? target.ref : target.selector)));

const NO_TABS: TabLookup = { getTab: async () => undefined };

/** Where a call acts: in the user's tab or on a connector's site (both resolved as a tab), or on the tab set. */
const actsInPlace = (tool: GatedTool) => tool.scope !== 'tabs';

interface Checked {
  tab: TabInfo | undefined;
  origin: string;
  destination: string | undefined;
}

interface Verdict {
  refused?: { gate: GateName; text: string };
  /** What the gates found so far: the audit records the origin of refused calls too. */
  checked: Checked;
}

/** Gates 2–5, run before the confirmation and again after it. */
async function checkGates(call: GatedCall, env: GateEnvironment, destinationUrl: string | undefined): Promise<Verdict> {
  const checked: Checked = { tab: undefined, origin: '', destination: undefined };
  const refuse = (gate: GateName, text: string): Verdict => ({ refused: { gate, text }, checked });
  if (destinationUrl !== undefined) checked.destination = originOf(destinationUrl);
  if (!actsInPlace(call.tool)) checked.origin = checked.destination ?? '';
  if (env.killed()) return refuse('kill-switch', REFUSALS.killSwitch);
  if (call.exposed && !call.exposed()) return refuse('exposure', REFUSALS.exposure);
  if (call.tool.effect === 'write' && !env.actMode()) return refuse('act-mode', REFUSALS.actMode);
  if (actsInPlace(call.tool)) {
    checked.tab = await call.resolveTab();
    checked.origin = originOf(checked.tab?.url);
    if (!checked.tab || !siteOrigin(checked.tab.url)) return refuse('target', REFUSALS.noTab);
    const refusal = await env.originRefusal(checked.tab.url);
    if (refusal) return refuse('origin', refusal);
  }
  if (destinationUrl !== undefined) {
    const refusal = await env.originRefusal(destinationUrl);
    if (refusal) return refuse('origin', refusal);
  }
  if (call.tool.capturesScreen) {
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
): void {
  env.audit({
    time: env.now(),
    agent,
    server,
    tool,
    origin: '',
    args: boundForAudit(redactArgs(rawArgs ?? {}, { values: env.secretValues() })),
    outcome: 'refused:arguments',
    detail: text,
    durationMs: 0,
  });
}

export async function runGated(call: GatedCall, env: GateEnvironment, grants: SessionGrants): Promise<CallToolResult> {
  const started = env.now();
  // Where the call acts, filled in as the gates find out; the audit records it for refusals too.
  const place: { origin: string; destination?: string } = { origin: '' };
  // File contents are shown by their size from the first audit entry on, refused arguments included.
  const contents = call.tool.contentArgs ?? [];
  let shownArgs = redactArgs(call.rawArgs ?? {}, { values: env.secretValues(), contents });
  let scrub: string[] = [...env.secretValues()];
  const finish = (result: CallToolResult, outcome: AuditOutcome, detail?: string): CallToolResult => {
    env.audit({
      time: started,
      agent: call.agentName,
      server: call.server,
      tool: call.tool.name,
      origin: place.origin,
      ...(place.destination !== undefined && place.destination !== place.origin
        ? { destination: place.destination }
        : {}),
      args: boundForAudit(shownArgs),
      outcome,
      ...(detail ? { detail } : {}),
      durationMs: env.now() - started,
    });
    return outcome === 'ok' || outcome === 'error' ? scrubResult(result, scrub) : result;
  };
  const refuse = (gate: GateName, text: string) => finish(errorResult(text), `refused:${gate}`, text);
  const cancelled = () => {
    const text = `The call was cancelled: ${String((call.signal.reason as Error)?.message ?? call.signal.reason)}.`;
    return finish(errorResult(text), 'cancelled', text);
  };

  const parsed = call.tool.input.safeParse(call.rawArgs ?? {});
  if (!parsed.success) {
    return refuse(
      'arguments',
      `Invalid arguments for ${call.tool.name}: ${describeArgumentErrors(parsed.error)}. Nothing was done.`,
    );
  }
  const args = parsed.data as Record<string, unknown>;
  if (call.signal.aborted) return cancelled();

  // What the user is asked about is what the gates checked.
  const destinationOf = () => call.tool.destination?.(args, call.tabs ?? NO_TABS);
  const destinationUrl = env.killed() ? undefined : await destinationOf();
  const before = await checkGates(call, env, destinationUrl);
  place.origin = before.checked.origin;
  place.destination = before.checked.destination;
  const { origin, destination } = place;
  if (before.refused) return refuse(before.refused.gate, before.refused.text);

  const unavailable = async () => {
    const reason = before.checked.tab && (await call.unavailable?.(before.checked.tab));
    return reason ? finish(errorResult(reason), 'error', reason) : undefined;
  };
  const held = await unavailable();
  if (held) return held;
  if (call.signal.aborted) return cancelled();

  const granted = () =>
    !call.tool.alwaysConfirm && grants.has(call.agentName, call.server, call.tool.name, origin, destination);
  const typedInto = call.tool.typedInto?.(args) ?? [];
  let described: ConfirmTarget[] | undefined;
  if (before.checked.tab && call.inspectTargets) {
    const asking = call.tool.effect === 'write' && !granted();
    // When the page cannot say which fields are passwords, every typed value is treated as one.
    const report = await call.inspectTargets(args, typedInto, before.checked.tab, asking).catch(() => undefined);
    const targets = report?.secret ?? targetKeys(typedInto);
    shownArgs = redactArgs(call.rawArgs ?? {}, { targets, values: env.secretValues(), contents });
    scrub = [...scrub, ...secretValuesIn(args, targets)];
    // A page that cannot be asked cannot vouch for any target: the card says none was found.
    described =
      report?.described ?? (asking ? elementTargets(args).map((target) => ({ target: targetKey(target) })) : []);
    // A dialog that opened while the page was asked holds it still: no card for a call that cannot run.
    const heldSince = report ? undefined : await unavailable();
    if (heldSince) return heldSince;
  }

  let tab = before.checked.tab;
  if (call.tool.effect === 'write' && !granted()) {
    const request: ConfirmRequest = {
      agentName: call.agentName,
      server: call.server,
      tool: call.tool.name,
      origin,
      ...(destination !== undefined && destination !== origin ? { destination } : {}),
      args: shownArgs,
      ...(tab?.url ? { url: tab.url } : {}),
      ...(described?.length ? { targets: described } : {}),
      ...(call.tool.alwaysConfirm ? { everyTime: true } : {}),
    };
    const answer = await env.confirm(request, call.signal);
    if (answer === 'cancelled' || call.signal.aborted) return cancelled();
    if (answer === 'deny') return refuse('confirmation', REFUSALS.denied);
    if (answer === 'timeout') return refuse('confirmation', REFUSALS.timeout);

    // A tab named by id may have navigated meanwhile, so where the call leads is looked up again.
    const after = await checkGates(call, env, await destinationOf());
    if (after.refused?.gate === 'target') {
      return refuse('confirmation', REFUSALS.pageMoved('a page Tabwright cannot work on'));
    }
    if (after.refused) return refuse(after.refused.gate, after.refused.text);
    // Refs die with their document, so the same tab on the same origin is what the user approved.
    const moved =
      after.checked.tab?.id !== tab?.id || after.checked.origin !== origin || after.checked.destination !== destination;
    if (moved) return refuse('confirmation', REFUSALS.pageMoved(after.checked.origin || 'another page'));
    tab = after.checked.tab;
    if (answer === 'site' && !call.tool.alwaysConfirm)
      grants.add(call.agentName, call.server, call.tool.name, origin, destination);
  }

  try {
    const result = await call.execute(args, tab);
    return finish(result, result.isError ? 'error' : 'ok');
  } catch (error) {
    if (call.signal.aborted) return cancelled();
    const text = `The tool failed: ${(error as Error).message ?? String(error)}`;
    return finish(errorResult(text), 'error', text);
  }
}
