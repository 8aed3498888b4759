/**
 * Why a page command failed, as a code beside the page protocol: the page agent sends the ones it
 * raises in its envelope, the panel adds its own (the transport, the page guard, the tools), and
 * code that reacts to a failure matches these names, never a message.
 */
export const PageErrorCode = {
  // Raised in the page.
  WrongKind: 'wrong-kind',
  BadArguments: 'bad-arguments',
  BadValue: 'bad-value',
  BadSelector: 'bad-selector',
  BadKey: 'bad-key',
  NoMatch: 'no-match',
  NoOption: 'no-option',
  DisabledOption: 'disabled-option',
  NoScroll: 'no-scroll',
  /** The element opens the browser's own file picker, which no page event can fill. */
  FilePicker: 'file-picker',
  StaleRef: 'stale-ref',
  /**
   * The user's own JavaScript dialog holds the page, so nothing runs there until they answer it (the
   * panel), or opened while an action was on its way, which is then not done (the page).
   */
  DialogOpen: 'dialog-open',
  Cancelled: 'cancelled',
  /** The person used the tab mid-action and did not leave it alone in time. */
  PersonBusy: 'person-busy',
  /** The document answered a snapshot meant for another frame. */
  FrameChanged: 'frame-changed',
  /** A connector's request for another origin than the page's. */
  CrossOrigin: 'cross-origin',
  /** A connector's same-origin request got no response. */
  FetchFailed: 'fetch-failed',
  /** An agent error without a code. */
  Page: 'page',
  // Raised by the transport to the page.
  BadReply: 'bad-reply',
  FrameGone: 'frame-gone',
  TabGone: 'tab-gone',
  ErrorPage: 'error-page',
  NotScriptable: 'not-scriptable',
  NoAccess: 'no-access',
  Scripting: 'scripting',
  LoadFailed: 'load-failed',
  HistoryEnd: 'history-end',
  // Raised by the panel around a command.
  NoTab: 'no-tab',
  PageUnresponsive: 'page-unresponsive',
  PageChanged: 'page-changed',
  FramesUnknown: 'frames-unknown',
  /** The page guard refused the document: nothing was read. */
  Refused: 'refused',
  /** The document moved to a refused URL before it answered: the reply was withheld. */
  MovedRefused: 'moved-refused',
  /** A tool the page itself declared (WebMCP) answered with an error. */
  PageTool: 'page-tool',
} as const;

/** A code from the list, or an actionability check that failed (`not-actionable:visible`). */
export type PageErrorCode = (typeof PageErrorCode)[keyof typeof PageErrorCode] | `not-actionable:${string}`;

/** The failures that mean the document went away under the command, i.e. the page navigated. */
const DOCUMENT_GONE: ReadonlySet<string> = new Set([
  PageErrorCode.FrameGone,
  PageErrorCode.BadReply,
  PageErrorCode.FrameChanged,
]);

export function meansDocumentGone(code: string): boolean {
  return DOCUMENT_GONE.has(code);
}

/** What the model reads when a frame went away under a command. */
export const FRAME_GONE_TEXT = 'The frame went away (the page navigated). Call snapshot again.';

const KNOWN: ReadonlySet<string> = new Set(Object.values(PageErrorCode));

/** A code as it came over the wire: one of ours, else the generic `page`. */
export function pageErrorCodeOf(wire: string | undefined): PageErrorCode {
  if (wire === undefined) return PageErrorCode.Page;
  if (KNOWN.has(wire) || wire.startsWith('not-actionable:')) return wire as PageErrorCode;
  return PageErrorCode.Page;
}
