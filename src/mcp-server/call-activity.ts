/**
 * What the panel shows while a call works (the agent's tab group, the outline on the page): a hook
 * that wraps every call the gates let through, so neither the tools nor the gates know about it.
 */
import type { PagePort, TabInfo } from './browser-port';

export interface ActiveCall {
  tool: string;
  write: boolean;
  /** `page` tools act in `tab`; `tabs` tools work on the tab set (and may leave another tab in front). */
  target: 'page' | 'tabs';
  tab: TabInfo | undefined;
  /**
   * The caller works in the tab in front ("Follow my current tab"), so the tabs it works in are
   * shown as its own while it does; the tabs of a caller that owns tabs are shown by what it owns.
   */
  follows: boolean;
  windowId: number;
  signal: AbortSignal;
  /** The origin gate's decision for a URL, for a tab the call ends up in. */
  checkDestination(url: string): Promise<string | undefined>;
  /** The call's own way into the page: what is shown there passes the gates the call passed. */
  page: PagePort;
}

export interface CallActivity {
  /**
   * Runs `work` (the tool's handler) while showing the call, handing it `shown`, which resolves
   * (never rejects) once what is shown is in place: the handler may prepare meanwhile, and waits
   * for it before it touches the page. The handler calls `acted` once its action is done in the
   * page, so that what is shown may come down while it reads the answer. Whatever it shows must be
   * gone when this settles, however `work` ends.
   */
  around(call: ActiveCall, work: (shown: Promise<void>, acted: () => void) => Promise<void>): Promise<void>;
  /** The call waits (on) or has stopped waiting (off) for the person to leave its tab alone. */
  waitingForPerson?(call: ActiveCall, on: boolean): Promise<void>;
}
