/**
 * What the rest of the panel knows of JavaScript dialogs: the relays' port the platform implements
 * over chrome.scripting, and the shapes that cross it. Everything else about dialogs stays in this
 * folder.
 */
import type { DialogAnswer, DialogKind, DialogRecord } from '../../page/dialogs/channel';

export type { DialogAnswer, DialogKind, DialogRecord };

export interface FrameDialogs {
  frameId: number;
  records: DialogRecord[];
}

export type LeaveMode = 'check' | 'allow' | 'forbid';

/** The tab's dialog relays, reached without the page agent. */
export interface DialogPort {
  /**
   * Claims an arming's token for the call before anything is armed with it; the returned function
   * releases it, and every relay armed with it disarms then (see claims.ts).
   */
  claim?(token: string): () => void;
  /** Arms every frame of the tab to dismiss. */
  arm(tabId: number, token: string): Promise<void>;
  /** The dialogs each frame saw since `arm`, disarming them. */
  collect(tabId: number, token: string): Promise<FrameDialogs[]>;
  /** For each frame with a hook, whether leaving would prompt (`check`), or that it was told. */
  leave(tabId: number, mode: LeaveMode): Promise<{ frameId: number; asks: boolean }[]>;
}
