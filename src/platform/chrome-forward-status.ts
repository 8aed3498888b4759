/** How forwarding stands, read from the local area, and news of each change, for the panel to show. */
import { FORWARD_KEY, readForwarding } from '../audit-forward/forwarder';
import { forwardStatus, type ForwardStatus } from '../audit-forward/status';
import { forwardTarget } from '../audit-forward/target';
import { AUDIT_KEY } from '../mcp-server/gates/audit-log';
import type { PolicyHolder } from '../shared/policy-holder';

export interface ForwardStatusSource {
  read(): Promise<ForwardStatus>;
  /** Calls `listener` on every change; returns the way to stop. */
  watch(listener: () => void): () => void;
}

export function chromeForwardStatus(policy: PolicyHolder): ForwardStatusSource {
  return {
    async read() {
      const target = forwardTarget(policy.policy);
      if (!target.on)
        return forwardStatus(target, { entries: [], checkpoint: { dropped: 0, hash: '' }, state: undefined });
      return forwardStatus(target, await readForwarding(chrome.storage.local));
    },
    watch(listener) {
      const onStored = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
        if (area === 'local' && (AUDIT_KEY in changes || FORWARD_KEY in changes)) listener();
      };
      chrome.storage.onChanged.addListener(onStored);
      const stopPolicy = policy.subscribe(listener);
      return () => {
        chrome.storage.onChanged.removeListener(onStored);
        stopPolicy();
      };
    },
  };
}
