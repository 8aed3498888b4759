/**
 * JavaScript dialogs, panel side: arming the page's relays around an action and reporting what
 * they saw, leaving a page that asks first, and the person's own dialogs holding a tab. What the
 * rest of the panel uses is exported here; the modules beside it are this folder's own.
 */
export { armDialogs, dialogAnswerOf, type ArmedDialogs, type ArmingContext } from './arming';
export { CallDialogs, dialogAwarePage, type CallDialogsOptions, type Leaving } from './call-dialogs';
export { ArmingClaims, type ArmingLine } from './claims';
export { DialogHeld, DialogHolds, readNativeDialogMessage, type ResponsivenessProbe } from './holds';
export { leaveRefusal, restoreLeavePrompt, type LeaveContext } from './leave';
export { OpenDialogs, readOpenDialogRecords, type OpenDialogRecord } from './open-dialogs';
export type { DialogAnswer, DialogKind, DialogPort, DialogRecord, FrameDialogs, LeaveMode } from './port';
export { describeAnswer, heldMidCallText, heldText, heldUnreadText } from './texts';
