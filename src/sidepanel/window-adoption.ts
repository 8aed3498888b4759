/**
 * The conversation and the agents' sessions are kept per browser window, and window ids do not
 * survive a browser restart. So a panel opening in a window that has neither takes over those of
 * the window used most recently among the ones no longer open: after a restart the chat comes
 * back and the sessions resume. Windows that are still open keep theirs.
 */
import type { SessionIdStore, StorageArea } from '../shared/stores';
import { asIndex, HISTORY_INDEX_KEY, historyKey } from './history';

export interface AdoptionInput {
  area: StorageArea;
  sessions: SessionIdStore;
  windowId: number;
  /** Ids of the windows open now (this one included). */
  openWindowIds: ReadonlySet<number>;
  agentIds: readonly string[];
}

/** Takes over a closed window's conversation and sessions when this window has none; says which. */
export async function adoptClosedWindow(input: AdoptionInput): Promise<number | undefined> {
  const { area, sessions, windowId, openWindowIds, agentIds } = input;
  const here = historyKey(windowId);
  const { [here]: own, [HISTORY_INDEX_KEY]: storedIndex } = await area.get([here, HISTORY_INDEX_KEY]);
  if (own !== undefined || (await sessions.any(windowId, agentIds))) return undefined;
  const index = asIndex(storedIndex);
  let from: number | undefined;
  for (const [id, savedAt] of Object.entries(index)) {
    const candidate = Number(id);
    if (!Number.isInteger(candidate) || candidate === windowId || openWindowIds.has(candidate)) continue;
    if (from === undefined || savedAt > index[String(from)]!) from = candidate;
  }
  if (from === undefined) return undefined;
  const { [historyKey(from)]: history } = await area.get([historyKey(from)]);
  const savedAt = index[String(from)]!;
  delete index[String(from)];
  if (history !== undefined) {
    await area.set({ [here]: history, [HISTORY_INDEX_KEY]: { ...index, [windowId]: savedAt } });
  } else {
    await area.set({ [HISTORY_INDEX_KEY]: index });
  }
  await area.remove([historyKey(from)]);
  await sessions.move(from, windowId, agentIds);
  return from;
}
