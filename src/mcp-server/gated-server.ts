/**
 * The one MCP server every kind of tool is served by — browser tools, connector tools, page-
 * declared tools — and the one path a call takes through it: the registry, then the gates in their
 * order (arguments, kill switch, exposure, act mode, target, origin, screenshots), the user's own
 * dialog, the elements named by role and name looked up as refs, the page asked what the targets
 * are, the confirmation and the gates again after it, then the tool, one call at a time per tab. A
 * kind says only which tools it has, which tab a call acts in, how a call runs and how elements are
 * looked up. The gates return verdicts; failures become error results in one place
 * (`CallSession.fail`); every call is audited once.
 */
import { unknownToolText } from '../contract/mcp';
import type { PageTransport, TabInfo } from './browser-port';
import type { ActiveCall, CallActivity } from './call-activity';
import { ACTION_DEADLINE_MS } from './action-flow';
import { personFirst } from './person-first';
import type { Caller } from './caller';
import { CallSession } from './call-session';
import { DialogHeld, dialogAnswerOf, heldMidCallText, heldText, type DialogHolds, type DialogPort } from './dialogs';
import { auditUnknownTool, checkGates, REFUSALS, type SessionGrants } from './gates/call-gate';
import { elementTargets, inspectTargets, targetKey } from './gates/inspect-targets';
import { originOf } from './gates/origin';
import { resolveTargets, type TargetLookup } from './gates/resolve-targets';
import type { TargetQuery } from '../page/target-match';
import { targetText } from './target-args';
import type { ConfirmRequest, ConfirmTarget, GateEnvironment } from './gates/types';
import type { CallMeta, ToolServer } from './mcp-core';
import { describeArgumentErrors, type ToolListing, type ToolRegistry } from './registry';
import type { CallToolResult } from './response';
import { raceAbort } from '../shared/race-abort';
import type { TabQueue } from './tab-queue';
import { blockedByUserDialog, type TabLookup, type ToolSpec } from './tool-spec';
import { ToolFailure } from './tool-failure';

/** Why a kind offers no tools now, said to the agent; or its registry. */
export type Offer<T extends ToolSpec> = ToolRegistry<T> | { closed: string };

export interface ToolKind<T extends ToolSpec> {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  /** The tools offered now. */
  offer(): Offer<T>;
  /** Looks again for tools the offer did not have (a page may have declared one since). */
  refresh?(): Promise<void>;
  /** What to say of a name the offer does not have. */
  unknownText?(name: string, known: readonly string[]): string;
  /**
   * The tab a call of `tool` acts in (asked only for tools that act in place), or why the caller
   * has none it may act in.
   */
  findTab(tool: T, call: CallSession): Promise<TabInfo | { refusal: string } | undefined>;
  /** Whether the caller works in the tab in front rather than in tabs of its own (yes, unless the kind says). */
  followsFront?(call: CallSession): boolean;
  /** Why the caller may not name the tab the arguments name (one that is not its own), if it may not. */
  refuseNamedTab?(tool: T, args: Record<string, unknown>, call: CallSession): Promise<string | undefined>;
  /** Runs a call the gates let through, writing its answer into `call.response`. */
  run(call: CallSession, tool: T, args: Record<string, unknown>): Promise<void>;
  /**
   * Looks up elements by role and name in the call's tab, through the call's page port: the lines
   * of every frame the gates allow, in snapshot order, each line a query names carrying a ref.
   * Needed by kinds whose tools resolve targets (`resolvesTargets`).
   */
  readTargets?(call: CallSession, queries: TargetQuery[], signal: AbortSignal): Promise<TargetLookup>;
}

export interface GatedServerOptions {
  agentName(): string;
  /** Who a call comes from; the agent itself (named by `agentName`) when absent. */
  callerOf?(meta: CallMeta): Caller;
  gates: GateEnvironment;
  grants: SessionGrants;
  /** Whether the agent is still offered this server; read on every call. */
  exposed?(): boolean;
  /** Whether the agent may be offered this tool of the server (an organisation's policy); read on every call. */
  toolOffered?(name: string): boolean;
  /** The way into pages, for kinds whose tools read or act in one. */
  page?: PageTransport;
  /** Looks up tabs named by id, for a tool's `destination`. */
  tabs?: TabLookup;
  /** Tabs held by the user's own dialogs: calls a dialog blocks end at once instead of waiting on it. */
  holds?: DialogHolds;
  /** The tabs' dialog relays: actions answer or dismiss the dialogs they open, leaves ask first. */
  dialogs?: DialogPort;
  /** Calls on one tab, one at a time, shared by every server of the panel. */
  tabQueue?: TabQueue;
  /** What the user sees while a call works (tab group, outline). */
  activity?: CallActivity;
  windowId?: number;
}

const NO_TABS: TabLookup = { getTab: async () => undefined };

/** Where a call acts: in a tab or on a connector's site (both resolved as a tab), or on the tab set. */
const actsInPlace = (tool: ToolSpec) => tool.scope !== 'tabs';

export class GatedServer<T extends ToolSpec> implements ToolServer {
  constructor(
    private readonly kind: ToolKind<T>,
    private readonly options: GatedServerOptions,
  ) {}

  get name(): string {
    return this.kind.name;
  }

  get version(): string {
    return this.kind.version;
  }

  get instructions(): string | undefined {
    return this.kind.instructions;
  }

  list(): ToolListing[] {
    const offer = this.kind.offer();
    if ('closed' in offer) return [];
    const offered = this.options.toolOffered;
    return offered ? offer.list().filter((listing) => offered(listing.name)) : offer.list();
  }

  async #lookup(name: string): Promise<T | { refusal: string; gate: 'exposure' | 'arguments' }> {
    let offer = this.kind.offer();
    if ('closed' in offer) return { refusal: offer.closed, gate: 'exposure' };
    let tool = offer.lookup(name);
    if (!tool && this.kind.refresh) {
      await this.kind.refresh();
      offer = this.kind.offer();
      if ('closed' in offer) return { refusal: offer.closed, gate: 'exposure' };
      tool = offer.lookup(name);
    }
    if (tool && this.options.toolOffered?.(name) === false) {
      return { refusal: `Your organisation does not offer ${name} to this agent.`, gate: 'exposure' };
    }
    if (tool) return tool;
    const known = this.list().map((listing) => listing.name);
    return { refusal: this.kind.unknownText?.(name, known) ?? unknownToolText(name, known), gate: 'arguments' };
  }

  async call(name: string, rawArgs: Record<string, unknown> | undefined, meta: CallMeta): Promise<CallToolResult> {
    const { gates } = this.options;
    const found = await this.#lookup(name);
    if ('refusal' in found) {
      const label = this.options.callerOf?.(meta).label ?? this.options.agentName();
      auditUnknownTool(gates, label, this.name, name, rawArgs, found.refusal, found.gate);
      return { isError: true, content: [{ type: 'text', text: found.refusal }] };
    }
    const tool = found;
    const caller = this.options.callerOf?.(meta) ?? { id: this.options.agentName(), label: this.options.agentName() };
    const session = new CallSession(
      { caller, agentName: caller.label, server: this.name, tool, rawArgs, signal: meta.signal },
      gates,
      this.options.page,
    );
    try {
      return await this.#gated(session, tool);
    } catch (error) {
      return await session.fail(error);
    }
  }

  async #gated(session: CallSession, tool: T): Promise<CallToolResult> {
    const { gates, grants } = this.options;
    const { agentName, server, signal, rawArgs } = session.facts;
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      return session.refuse(
        'arguments',
        `Invalid arguments for ${tool.name}: ${describeArgumentErrors(parsed.error)}. Nothing was done.`,
      );
    }
    const args = parsed.data as Record<string, unknown>;
    if (signal.aborted) return session.cancelled();
    if (this.options.page && (this.options.dialogs || this.options.holds)) {
      session.useDialogs({
        port: this.options.dialogs,
        holds: this.options.holds,
        // Only a write, confirmed by the user, may answer a dialog: a read's dialogs are always dismissed.
        answer: tool.effect === 'write' ? dialogAnswerOf(args.dialog) : undefined,
      });
    }

    // What the user is asked about is what the gates checked.
    const destinationOf = () => tool.destination?.(args, this.options.tabs ?? NO_TABS);
    const check = async () => {
      const found = !gates.killed() && actsInPlace(tool) ? await this.kind.findTab(tool, session) : undefined;
      const named = gates.killed() ? undefined : await this.kind.refuseNamedTab?.(tool, args, session);
      // A tab that is not the caller's is refused before anything of it, its address included, is looked at.
      const notOwn = named ?? (found && 'refusal' in found ? found.refusal : undefined);
      const tab = found && 'refusal' in found ? undefined : found;
      const destination = gates.killed() || notOwn ? undefined : await destinationOf();
      return checkGates({ tool, exposed: this.options.exposed, tab, notOwn }, gates, destination);
    };
    const before = await check();
    session.place.origin = before.checked.origin;
    if (before.checked.destination !== undefined) session.place.destination = before.checked.destination;
    if (before.refused) return session.refuse(before.refused.gate, before.refused.text, before.refused.url);
    session.tab = before.checked.tab;
    session.allowed(session.tab?.url);
    const { origin, destination } = session.place;

    const held = await this.#held(session, tool);
    if (held) return held;
    if (signal.aborted) return session.cancelled();

    const resolved = await this.#resolve(session, tool, args);
    if ('result' in resolved) return resolved.result;
    const callArgs = resolved.args;

    const grantee = session.facts.caller.id;
    const everyTime = tool.alwaysConfirm || gates.alwaysConfirm?.() === true;
    const granted = () => !everyTime && grants.has(grantee, server, tool.name, origin, destination);
    const asking = tool.effect === 'write' && !granted();
    if (!asking) {
      session.unasked(tool.effect === 'write' ? 'granted' : 'read');
      // With no card to fill, which typed fields are secret matters only to the audit entry and the
      // result, both written when the call ends: the page is asked beside the action (the question
      // reaches it first), and a page that cannot answer leaves every typed value masked.
      const inspected = this.#inspect(session, tool, callArgs, false).catch(() => undefined);
      try {
        await this.#run(session, tool, callArgs);
      } finally {
        await inspected;
      }
      return await session.done();
    }

    const described = await this.#inspect(session, tool, callArgs, true);
    if (described === 'held') return (await this.#held(session, tool))!;
    if (described) session.describedElements(described);
    const request: ConfirmRequest = {
      agentName,
      server,
      tool: tool.name,
      origin,
      ...(destination !== undefined && destination !== origin ? { destination } : {}),
      args: session.shownArgs,
      ...(session.tab?.url ? { url: session.tab.url } : {}),
      ...(session.tab?.url && tool.scope === 'site' ? { ownTab: true as const } : {}),
      ...(described?.length
        ? { targets: described.map((seen) => ({ ...seen, target: session.shownTarget(seen.target) })) }
        : {}),
      ...(everyTime ? { everyTime: true } : {}),
    };
    const askedAt = gates.now();
    const answer = await gates.confirm(request, signal);
    session.answered(answer, gates.now() - askedAt);
    if (answer === 'cancelled' || signal.aborted) return session.cancelled();
    if (answer === 'deny') return session.refuse('confirmation', REFUSALS.denied);
    if (answer === 'timeout') return session.refuse('confirmation', REFUSALS.timeout);

    // A confirmation only covers what the user saw: the tab, and where the call leads, are checked again.
    session.forgetVerdicts();
    const after = await check();
    if (after.refused?.gate === 'target') {
      return session.refuse('confirmation', REFUSALS.pageMoved('a page Tabwright cannot work on'));
    }
    if (after.refused) return session.refuse(after.refused.gate, after.refused.text, after.refused.url);
    // Refs die with their document, so the same tab on the same origin is what the user approved.
    const moved =
      after.checked.tab?.id !== session.tab?.id ||
      after.checked.origin !== origin ||
      after.checked.destination !== destination;
    if (moved) return session.refuse('confirmation', REFUSALS.pageMoved(after.checked.origin || 'another page'));
    session.tab = after.checked.tab;
    session.allowed(session.tab?.url);
    if (answer === 'site' && !everyTime) grants.add(grantee, server, tool.name, origin, destination);

    await this.#run(session, tool, callArgs);
    return await session.done();
  }

  /**
   * Looks up the elements the arguments name by role and name, once, before anything else is
   * asked of the page: the call goes on with each one's ref beside it, or ends saying why not.
   */
  async #resolve(
    session: CallSession,
    tool: T,
    args: Record<string, unknown>,
  ): Promise<{ args: Record<string, unknown> } | { result: CallToolResult }> {
    if (!tool.resolvesTargets || !session.tab || tool.scope !== 'page') return { args };
    const read = (queries: TargetQuery[], signal: AbortSignal) => {
      if (!this.kind.readTargets)
        throw new ToolFailure('This server cannot look elements up by role and name; pass a ref.');
      return this.kind.readTargets(session, queries, signal);
    };
    let resolution;
    try {
      resolution = await this.#unlessHeld(session, tool, (signal) =>
        resolveTargets(args, (queries) => read(queries, signal)),
      );
    } catch (error) {
      const held = await this.#held(session, tool);
      if (held) return { result: held };
      throw error;
    }
    if (resolution.ok) {
      session.resolvedTargets(resolution.resolved);
      return { args: resolution.args };
    }
    // Nothing was found to vouch that a field is not a password field: what was to be typed is masked.
    const typed = resolution.slots.filter(
      ({ holder }) => typeof holder.text === 'string' || typeof holder.value === 'string',
    );
    session.secretTargets(new Set(typed.map((slot) => targetText(slot.target))), args);
    session.response.error(resolution.text);
    if (resolution.candidates) session.response.pageText(originOf(resolution.url), resolution.candidates);
    return { result: session.finish(session.response.build(), 'error', resolution.text) };
  }

  /** The user's own dialog holds the call's tab: the call ends before anything is asked of the page. */
  async #held(session: CallSession, tool: T): Promise<CallToolResult | undefined> {
    const { holds } = this.options;
    if (!holds || !session.tab || !blockedByUserDialog(tool)) return undefined;
    const kind = await holds.held(session.tab.id);
    if (!kind) return undefined;
    const text = heldText(kind);
    return session.finish({ isError: true, content: [{ type: 'text', text }] }, 'error', text);
  }

  /**
   * Asks the page about the element targets: which typed ones are secret fields, and (when the
   * user is about to be asked) what each element is, so the card names it as the page does. A
   * page that cannot be asked vouches for no target: every typed value is masked, and the card
   * says no target was found. 'held' when the user's dialog held the page meanwhile.
   */
  async #inspect(
    session: CallSession,
    tool: T,
    args: Record<string, unknown>,
    describe: boolean,
  ): Promise<ConfirmTarget[] | 'held' | undefined> {
    if (!session.tab || tool.scope !== 'page' || !this.options.page) return undefined;
    const typed = tool.typedInto?.(args) ?? [];
    const report = await this.#unlessHeld(session, tool, (signal) =>
      inspectTargets(session.page, session.tab!.id, args, typed, describe, signal),
    ).catch(() => undefined);
    session.secretTargets(report?.secret ?? typed, args);
    if (!report && (await this.#held(session, tool))) return 'held';
    return report?.described ?? (describe ? elementTargets(args).map((target) => ({ target: targetKey(target) })) : []);
  }

  /** Runs `work`, ending it with `DialogHeld` once the user's dialog holds the call's tab. */
  async #unlessHeld<R>(session: CallSession, tool: T, work: (signal: AbortSignal) => Promise<R>): Promise<R> {
    const held = session.tab && blockedByUserDialog(tool) ? this.options.holds?.watch(session.tab.id) : undefined;
    if (!held) return work(session.signal);
    try {
      return await raceAbort(work(AbortSignal.any([session.signal, held.signal])), held.signal);
    } finally {
      held.dispose();
    }
  }

  /** A write in its tab waits while the person is using that tab (see `person-first.ts`). */
  async #personFirst(session: CallSession, tool: T, signal: AbortSignal, call?: ActiveCall): Promise<void> {
    const tab = session.tab;
    if (!tab || tool.scope !== 'page' || tool.effect !== 'write') return;
    const { activity } = this.options;
    await personFirst({
      idleMs: async (signal) => (await session.guard.run(tab.id, { op: 'personIdle' }, { signal })).idleMs,
      limitMs: ACTION_DEADLINE_MS,
      ...(call && activity?.waitingForPerson ? { waiting: (on: boolean) => activity.waitingForPerson!(call, on) } : {}),
      signal,
    });
  }

  /** The tool itself: in its tab's turn, while what the call shows is up, stopped by the user's dialog. */
  async #run(session: CallSession, tool: T, args: Record<string, unknown>): Promise<void> {
    const { tabQueue, activity } = this.options;
    const tab = session.tab;
    const work = () =>
      this.#unlessHeld(session, tool, async (signal) => {
        session.workSignal = signal;
        if (!activity || tool.scope === 'site') {
          await this.#personFirst(session, tool, signal);
          return this.kind.run(session, tool, args);
        }
        const write = tool.effect === 'write';
        const target = tool.scope === 'page' ? 'page' : 'tabs';
        const checkDestination = (url: string) => session.decide(url);
        const call: ActiveCall = {
          tool: tool.name,
          write,
          target,
          tab,
          follows: this.kind.followsFront?.(session) ?? true,
          windowId: this.options.windowId ?? -1,
          signal,
          checkDestination,
          page: session.guard,
        };
        await activity.around(call, async (shown, acted) => {
          session.acted = acted;
          // Whether the person is busy is asked beside the outline being drawn (a read needs none):
          // the guard holds back only the commands asked for after `waitFor`.
          const personFirst = this.#personFirst(session, tool, signal, call);
          session.guard.waitFor(shown);
          await personFirst;
          await this.kind.run(session, tool, args);
          session.reportDialogs();
        });
      });
    try {
      await (tab && tool.scope === 'page' && tabQueue ? tabQueue.run(tab.id, session.signal, work) : work());
    } catch (error) {
      if (error instanceof DialogHeld && !session.signal.aborted) throw new ToolFailure(heldMidCallText(error.kind));
      throw error;
    }
  }
}
