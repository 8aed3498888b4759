/**
 * The narrow view of the browser that tools get. The panel implements it over `chrome.*`; unit
 * tests implement it over fakes. Nothing in here touches `chrome` itself.
 */
import type { PageErrorCode } from '../page/error-codes';
import { FAILURE_TEXT, ToolFailure } from './tool-failure';
import type { PageCommand, PageReply } from '../page/protocol';
import type { NavigationState, SettleOutcome } from './navigation-tracker';

export interface TabInfo {
  id: number;
  windowId: number;
  url: string | undefined;
  title: string | undefined;
  active: boolean;
  loading: boolean;
}

export interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
  /** Chrome's id of the document the frame holds now; absent where Chrome does not say. */
  documentId?: string;
}

export interface RunOptions {
  frameId?: number;
  signal?: AbortSignal;
  /** The command is an action: the page's dialogs it opens are answered as the call says (src/mcp-server/dialogs/). */
  arm?: boolean;
}

export interface SendOptions {
  frameId: number;
  /** Chrome's document id: the command runs in exactly that document, or fails if it is gone. */
  documentId?: string;
  signal?: AbortSignal;
}

/** A page agent's reply with where it was produced: the document's URL when it answered. */
export interface PageAnswer<C extends PageCommand> {
  value: PageReply<C>;
  url: string;
  /** The page agent's own id for the document. */
  documentId: string;
}

/**
 * The raw way into pages, implemented over `chrome.scripting`. Nothing reads a page through it
 * directly: tools get a `PagePort` that asks the gates about every document first (page-guard.ts).
 */
export interface PageTransport {
  send<C extends PageCommand>(tabId: number, command: C, options: SendOptions): Promise<PageAnswer<C>>;
  frames(tabId: number): Promise<FrameInfo[]>;
}

/** Page commands as tools see them: only documents the gates allow are reached, only their replies come back. */
export interface PagePort {
  /** Runs one command in the page agent of a frame (the top frame unless told otherwise). */
  run<C extends PageCommand>(tabId: number, command: C, options?: RunOptions): Promise<PageReply<C>>;
  /** The tab's child frames whose documents the gates allow (about:blank and srcdoc frames judged by their ancestors). */
  readableFrames(tabId: number): Promise<FrameInfo[]>;
  /** Every frame of the tab with its URL, for placing and masking frames; reading any of them still goes through `run`. */
  frames(tabId: number): Promise<FrameInfo[]>;
}

/** The navigations of one tab's top frame, recorded from the moment the watch starts. */
export interface NavigationWatch extends NavigationState {
  /** Resolves once no navigation is going; `expectStartMs`: one is expected, wait that long for it to begin. */
  settled(options: { expectStartMs?: number; timeoutMs: number }, signal: AbortSignal): Promise<SettleOutcome>;
  dispose(): void;
}

export interface BrowserPort {
  readonly page: PageTransport;
  getTab(tabId: number): Promise<TabInfo | undefined>;
  activeTab(windowId: number): Promise<TabInfo | undefined>;
  listTabs(): Promise<TabInfo[]>;
  /** With a URL, waits (bounded, cancellable with `signal`) for the first load. */
  createTab(options: { url?: string; active: boolean; windowId: number }, signal?: AbortSignal): Promise<TabInfo>;
  /**
   * Opens a tab shown in a window that is not focused (waiting, bounded, for a URL's first load):
   * in `windowId`, or in a new normal window. The person's focused window and its active tab stay
   * as they are. Absent: the browser cannot open windows.
   */
  openInUnfocusedWindow?(options: { url?: string; windowId?: number }, signal?: AbortSignal): Promise<TabInfo>;
  /** Whether the window is open and not minimized, so its active tab is drawn. */
  windowShown?(windowId: number): Promise<boolean>;
  activateTab(tabId: number): Promise<TabInfo>;
  closeTab(tabId: number): Promise<void>;
  /** Navigates and waits (bounded) for the load to finish. */
  navigate(tabId: number, url: string, signal: AbortSignal): Promise<TabInfo>;
  goHistory(tabId: number, direction: 'back' | 'forward', signal: AbortSignal): Promise<TabInfo>;
  reload(tabId: number, bypassCache: boolean, signal: AbortSignal): Promise<TabInfo>;
  /** Starts recording a tab's navigations (and the tabs it opens), to follow what an action set off. */
  watchNavigation?(tabId: number): NavigationWatch;
  /**
   * Starts noticing anything that would make a capture of `tabId` show another document: another tab
   * becoming active in `windowId`, or the tab (any of its frames) navigating. Absent: the browser
   * cannot tell, and screenshots are not taken.
   */
  watchCapture?(tabId: number, windowId: number): CaptureWatch;
  /** A JPEG of the visible part of the window's active tab, as base64 without the data: prefix. */
  captureVisible(windowId: number, quality: number): Promise<string>;
  /** Whether Chrome has granted `<all_urls>`, which capturing a tab needs. Absent: screenshots are off. */
  canCaptureScreenshots?(): Promise<boolean>;
  /**
   * Draws captured images onto one picture of `size` (the first image's size when omitted), scaled by
   * `scale`, and encodes it as JPEG (base64).
   */
  composeJpeg?(
    parts: ImagePart[],
    size: { width: number; height: number } | undefined,
    scale: number,
    quality: number,
  ): Promise<{ data: string; width: number; height: number }>;
}

/** What a capture watch saw; `changed` stays set once something happened. */
export interface CaptureWatch {
  /** Why the page on screen may no longer be the one being captured; undefined while nothing changed. */
  readonly changed: string | undefined;
  dispose(): void;
}

/** A rectangle in CSS pixels of the top frame's viewport. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One captured image (JPEG, base64) and how far down the composed picture it goes, in its pixels.
 * `masks`: areas of the capture to paint over (frames the gates refused), in CSS pixels of a
 * viewport `viewportWidth` CSS pixels wide (the capture's width in image pixels may differ).
 */
export interface ImagePart {
  data: string;
  top: number;
  masks?: { viewportWidth: number; rects: Rect[] };
}

/** What tools may use of the browser: everything but the raw page transport. */
export type ToolBrowser = Omit<BrowserPort, 'page'>;

/** A failure the model should read: the page or tab could not do what was asked. */
export class PageCommandError extends ToolFailure {
  constructor(
    message: string,
    readonly code: PageErrorCode,
  ) {
    super(message);
  }
}

/** The tab the call worked in is gone. */
export function tabGone(): PageCommandError {
  return new PageCommandError(FAILURE_TEXT.tabClosed, 'tab-gone');
}
