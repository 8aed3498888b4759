/**
 * One tool call, owned from the gates to the result: the tab the gates checked, the one page guard
 * every page command of the call goes through (seeded with the gates' own verdicts, so a URL they
 * decided is not decided again), the response, and the audit entry — written once, when the call
 * ends, however it ends.
 */
import type { PagePort, PageTransport, TabInfo } from './browser-port';
import type { Caller } from './caller';
import { CallDialogs, dialogAwarePage, type CallDialogsOptions } from './dialogs';
import { boundForAudit, redactArgs, scrubResult, secretValuesIn } from './gates/redact';
import type {
  AuditDecision,
  AuditOutcome,
  ConfirmAnswer,
  ConfirmTarget,
  GateEnvironment,
  GateName,
} from './gates/types';
import { PageGuard } from './page-guard';
import { resolvedText, type ResolvedTarget } from './gates/resolve-targets';
import { targetText } from './target-args';
import { showInvisible } from '../shared/text/invisible';
import { ResponseBuilder, errorResult, type CallToolResult } from './response';
import type { ElementTargetArg, ToolSpec } from './tool-spec';
import { failureText, ToolFailure } from './tool-failure';

export interface CallFacts {
  /** Who is calling: owns the call's tabs and grants; the card and the audit log name it. */
  caller: Caller;
  agentName: string;
  server: string;
  tool: ToolSpec;
  rawArgs: Record<string, unknown> | undefined;
  signal: AbortSignal;
}

const keysOf = (targets: readonly ElementTargetArg[]): ReadonlySet<string> =>
  new Set(targets.map((target) => ('ref' in target ? target.ref : target.selector)));

export class CallSession {
  readonly started: number;
  readonly response = new ResponseBuilder();
  /** The tab the gates checked (and, after a confirmation, checked again). */
  tab: TabInfo | undefined;
  /** Where the call acts, filled in as the gates find out; the audit records it for refusals too. */
  readonly place: { origin: string; destination?: string } = { origin: '' };
  readonly #guard: PageGuard | undefined;
  #dialogs: CallDialogs | undefined;
  #page: PagePort | undefined;
  #shownArgs: Record<string, unknown>;
  #scrub: string[];
  /** Elements the agent named by role and name, and the refs they were looked up as. */
  #resolved: readonly ResolvedTarget[] = [];
  #ended = false;
  #decision: AuditDecision | undefined;
  #waitMs = 0;
  #elements: string[] = [];
  #reporting: Promise<void> | undefined;

  constructor(
    readonly facts: CallFacts,
    private readonly env: GateEnvironment,
    transport?: PageTransport,
  ) {
    this.started = env.now();
    // File contents are shown by their size from the first audit entry on, refused arguments included.
    this.#shownArgs = redactArgs(facts.rawArgs ?? {}, { values: env.secretValues(), contents: this.#contents });
    this.#scrub = [...env.secretValues()];
    // The call says when it moves a tab itself, so its guard keeps each tab's frames until then.
    this.#guard = transport ? new PageGuard(transport, (url) => env.originRefusal(url), undefined, true) : undefined;
  }

  get #contents(): readonly string[] {
    return this.facts.tool.contentArgs ?? [];
  }

  get signal(): AbortSignal {
    return this.facts.signal;
  }

  /** What the tool's work listens to: the call's signal, and the user's dialog holding its tab. */
  workSignal: AbortSignal | undefined;

  /** Says the call's action is done in the page, while its answer is still to be read (see `CallActivity`). */
  acted: (() => void) | undefined;

  /** The call's one guard: every page command reaches only documents the gates allow (page-guard.ts). */
  get guard(): PageGuard {
    if (!this.#guard) throw new Error(`${this.facts.server}.${this.facts.tool.name} has no page port`);
    return this.#guard;
  }

  /** The call's page port: through the guard, arming an action's dialogs when asked, refusing a held tab. */
  get page(): PagePort {
    return this.#page ?? this.guard;
  }

  /** The call deals with the page's dialogs and the user's: from now on its page port and `dialogs` do. */
  useDialogs(options: Omit<CallDialogsOptions, 'page' | 'decide' | 'signal'>): void {
    const guard = this.guard;
    this.#dialogs = new CallDialogs({
      ...options,
      page: guard,
      decide: (url) => guard.verdict(url),
      signal: () => this.workSignal ?? this.signal,
    });
    this.#page = dialogAwarePage(guard, this.#dialogs);
  }

  get dialogs(): CallDialogs | undefined {
    return this.#dialogs;
  }

  /** The gates' decision for a URL, asked once per URL for the call. */
  decide(url: string | undefined): Promise<string | undefined> {
    if (url === undefined || !this.#guard) return this.env.originRefusal(url);
    return this.#guard.verdict(url);
  }

  /** The gates allowed `url` for this call: the guard takes their verdict instead of asking again. */
  allowed(url: string | undefined): void {
    if (url !== undefined) this.#guard?.seed(url, undefined);
  }

  /** What the user saw may have changed while a card was up: every URL is decided afresh, every frame looked up again. */
  forgetVerdicts(): void {
    this.#guard?.forget();
    this.#guard?.forgetFrames();
  }

  /** The call acts on these refs where the agent named elements by role and name. */
  resolvedTargets(resolved: readonly ResolvedTarget[]): void {
    this.#resolved = resolved;
  }

  /** A ref or selector as the card shows it: a looked-up ref with what the agent asked for. */
  shownTarget(key: string): string {
    const found = this.#resolved.find((resolved) => resolved.ref === key);
    return found ? resolvedText(found) : key;
  }

  /**
   * Which typed targets are secret fields: masked in the card, the audit entry and the result. A
   * ref looked up from a target masks what the agent's own arguments aim at that target too.
   */
  secretTargets(targets: readonly ElementTargetArg[] | ReadonlySet<string>, args: Record<string, unknown>): void {
    const given = targets instanceof Set ? targets : keysOf(targets as readonly ElementTargetArg[]);
    const asked = this.#resolved.filter(({ ref }) => given.has(ref)).map(({ slot }) => targetText(slot.target));
    const keys = asked.length ? new Set([...given, ...asked]) : given;
    this.#shownArgs = redactArgs(this.facts.rawArgs ?? {}, {
      targets: keys,
      values: this.env.secretValues(),
      contents: this.#contents,
    });
    this.#scrub = [...this.#scrub, ...secretValuesIn(args, keys)];
  }

  /** The arguments as the card and the audit log show them. */
  get shownArgs(): Record<string, unknown> {
    return this.#shownArgs;
  }

  /** The person answered the card after `waitMs`; that time is not the call's own. */
  answered(answer: ConfirmAnswer, waitMs: number): void {
    this.#waitMs += waitMs;
    const decisions: Record<ConfirmAnswer, AuditDecision> = {
      once: 'once',
      site: 'site',
      deny: 'denied',
      timeout: 'timed-out',
      cancelled: 'withdrawn',
    };
    this.#decision = decisions[answer];
  }

  /** The call ran without a card: a read, or a write an earlier "for this site" answer covers. */
  unasked(decision: 'read' | 'granted'): void {
    this.#decision = decision;
  }

  /** The elements as the card names them (or would have): the audit keeps the same words. */
  describedElements(targets: readonly ConfirmTarget[]): void {
    this.#elements = targets
      .filter((target) => target.element)
      .map(({ element }) => showInvisible(`${element!.role}${element!.name ? ` "${element!.name}"` : ''}`));
  }

  /** Ends the call with `result`, audited once with its outcome. */
  finish(result: CallToolResult, outcome: AuditOutcome, detail?: string): CallToolResult {
    if (this.#ended) return result;
    this.#ended = true;
    const { place, facts } = this;
    const decision = outcome.startsWith('refused:') && outcome !== 'refused:confirmation' ? 'refused' : this.#decision;
    const url = this.tab?.url;
    this.env.audit({
      time: this.started,
      agent: facts.agentName,
      server: facts.server,
      tool: facts.tool.name,
      origin: place.origin,
      ...(place.destination !== undefined && place.destination !== place.origin
        ? { destination: place.destination }
        : {}),
      args: boundForAudit(this.#shownArgs),
      ...(this.#resolved.length ? { targets: this.#resolved.map((found) => showInvisible(resolvedText(found))) } : {}),
      ...(url ? { url } : {}),
      ...(this.#elements.length ? { elements: this.#elements } : {}),
      outcome,
      ...(decision ? { decision } : {}),
      ...(detail ? { detail } : {}),
      durationMs: Math.max(0, this.env.now() - this.started - this.#waitMs),
      ...(this.#waitMs ? { waitMs: this.#waitMs } : {}),
    });
    return outcome === 'ok' || outcome === 'error' ? scrubResult(result, this.#scrub) : result;
  }

  /** Ends the call refused at `gate`; the panel hears of it too (`url`: the address the origin gate refused). */
  refuse(gate: GateName, text: string, url?: string): CallToolResult {
    const { caller, server, tool } = this.facts;
    this.env.refused?.({
      callerId: caller.id,
      callerLabel: caller.label,
      server,
      tool: tool.name,
      gate,
      ...(url !== undefined ? { url } : {}),
    });
    return this.finish(errorResult(text), `refused:${gate}`, text);
  }

  cancelled(): CallToolResult {
    const reason = this.signal.reason as Error | undefined;
    const text = `The call was cancelled: ${String(reason?.message ?? reason)}.`;
    return this.finish(errorResult(text), 'cancelled', text);
  }

  /** The one place a failure becomes the tool's error result. */
  async fail(error: unknown): Promise<CallToolResult> {
    await this.#dialogs?.disarm();
    if (this.signal.aborted) return this.cancelled();
    const text = failureText(error);
    return error instanceof ToolFailure
      ? this.finish(new ResponseBuilder().error(text).build(), 'error')
      : this.finish(errorResult(text), 'error', text);
  }

  /**
   * Starts writing what the call's actions' dialogs were once the tool's work is done, so it is read
   * from the page while the call's outline comes down; `done` waits for it.
   */
  reportDialogs(): void {
    if (this.#reporting) return;
    this.#reporting = this.#dialogs?.report(this.response);
    // Awaited by `done`, which fails the call if it failed.
    this.#reporting?.catch(() => undefined);
  }

  /** The result the handler wrote, and after it what the call's actions' dialogs were. */
  async done(): Promise<CallToolResult> {
    this.reportDialogs();
    await this.#reporting;
    const result = this.response.build();
    return this.finish(result, result.isError ? 'error' : 'ok');
  }
}
