/**
 * Refused calls become fixes in the chat: each refusal the gates report is matched to the change
 * that would let it through (`gate-fixes.ts`), offered beside the caller's agent's message, and
 * made only when the person presses it — by the same actions Settings and the tab-sharing bar use.
 */
import type { TabSharing } from '../presence/tab-sharing';
import type { SettingsStore } from '../shared/settings-store';
import type { ChatModel } from './chat-model';
import { fixFor, type FixableSetting } from './gate-fixes';
import type { GatesService } from './gates-service';
import { t } from './i18n';
import { targetName } from './views/share-tab';

export interface PanelFixesOptions {
  chat: ChatModel;
  guards: Pick<GatesService, 'fixes' | 'onRefused'>;
  sharing: TabSharing;
  store: SettingsStore;
  /** Settings an organisation has locked, besides those its policy does: never offered as a fix. */
  locked?(setting: FixableSetting): boolean;
}

/** The agent a caller id belongs to: the agent itself, or the agent an MCP client came through. */
const agentOf = (callerId: string) => callerId.split('/mcp:')[0]!;

/** Starts offering fixes; returns what a press on one does. */
export function offerGateFixes(options: PanelFixesOptions): (segmentId: string) => Promise<void> {
  const { chat, guards, sharing, store } = options;
  const shareTarget = (callerId: string) => {
    const front = sharing.front();
    if (front.kind !== 'web') return undefined;
    const target = front.shareWith.find((candidate) => candidate.id === callerId);
    return target && { tabId: front.tabId, target };
  };
  guards.onRefused((notice) => {
    const fix = fixFor(notice, {
      blockedBy: guards.fixes.blockedBy,
      shareable: (callerId) => {
        const found = shareTarget(callerId);
        return found && targetName(found.target);
      },
      locked: (setting) => guards.fixes.locked(setting) || (options.locked?.(setting) ?? false),
      policyAllows: guards.fixes.policyAllows,
    });
    if (!fix) return;
    const agentId = agentOf(notice.callerId);
    const agentName = store.get().agents.find((agent) => agent.id === agentId)?.name ?? notice.callerLabel;
    chat.offerFix(agentId, agentName, fix, notice.tool);
  });

  return async (segmentId) => {
    const segment = chat.items
      .flatMap((item) => (item.kind === 'agent' ? item.segments : []))
      .find((candidate) => candidate.id === segmentId);
    if (segment?.kind !== 'fix' || segment.applied) return;
    const { fix } = segment;
    let problem: string | undefined;
    if (fix.kind === 'act-mode') await guards.fixes.setActMode(true);
    else if (fix.kind === 'allow-site') problem = await guards.fixes.allowSite(fix.origin);
    else {
      const found = shareTarget(fix.callerId);
      if (found) sharing.share(fix.callerId, found.tabId);
      else problem = t('fixShareNoTab');
    }
    chat.fixDone(segmentId, problem);
  };
}
