/**
 * Forwards the audit log from the service worker, so it goes out while no panel is open and
 * resumes after the browser restarts (the cursor and the back-off live in the local area). It
 * wakes when the log is written, when the policy changes, at start, and on the back-off alarm.
 * Chrome runs packed extensions' alarms at most every 30 seconds, so a short back-off waits that
 * long there (https://developer.chrome.com/docs/extensions/reference/api/alarms).
 */
import { AUDIT_KEY } from '../mcp-server/gates/audit-log';
import { forwardWaiting } from '../audit-forward/forwarder';
import { forwardTarget } from '../audit-forward/target';
import { readPolicy } from '../shared/policy';

const ALARM = 'audit-forward';
const LOCK = 'tabwright-audit-forward';

async function managedPolicy() {
  try {
    return readPolicy(await chrome.storage.managed.get(null)).policy;
  } catch {
    return {};
  }
}

async function forwardOnce(): Promise<void> {
  const target = forwardTarget(await managedPolicy());
  if (!target.on) {
    await chrome.alarms.clear(ALARM);
    return;
  }
  const retryAt = await forwardWaiting(target, {
    area: chrome.storage.local,
    fetch: (input, init) => fetch(input, init),
    now: Date.now,
  });
  if (retryAt === undefined) await chrome.alarms.clear(ALARM);
  else await chrome.alarms.create(ALARM, { when: retryAt });
}

export function forwardAuditLog(): void {
  let running: Promise<void> | undefined;
  let again = false;
  // One run at a time (the lock also covers a second worker instance during an update); a wake
  // during a run makes it look once more when it ends.
  const wake = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await navigator.locks.request(LOCK, forwardOnce);
        } catch (error) {
          console.error('Tabwright: audit forwarding failed', error);
        }
      } while (again);
      running = undefined;
    })();
  };
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'managed' || (area === 'local' && AUDIT_KEY in changes)) wake();
  });
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) wake();
  });
  wake();
}
