/**
 * Reads the organisation's policy from `chrome.storage.managed` at start and whenever Chrome
 * reloads it. Outside a managed browser the area is empty (or, in some builds, missing): no policy.
 */
import { readPolicy, NO_POLICY, type ReadPolicy } from '../shared/policy';
import { PolicyHolder } from '../shared/policy-holder';

async function readManaged(): Promise<ReadPolicy> {
  try {
    return readPolicy(await chrome.storage.managed.get(null));
  } catch {
    return NO_POLICY;
  }
}

export async function loadManagedPolicy(): Promise<PolicyHolder> {
  const holder = new PolicyHolder(await readManaged());
  chrome.storage.onChanged.addListener((_changes, area) => {
    if (area === 'managed') void readManaged().then((read) => holder.set(read));
  });
  return holder;
}
