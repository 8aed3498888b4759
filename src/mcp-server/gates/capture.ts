/**
 * Screenshots see everything on screen, so they are off until the user turns them on, and then
 * need Chrome's `<all_urls>` (captureVisibleTab requires it). The origin gates still apply.
 */
import { REFUSALS } from './refusals';

export const ALL_URLS = '<all_urls>';

export function captureRefusal(screenshotsOn: boolean, allUrlsGranted: boolean): string | undefined {
  if (!screenshotsOn) return REFUSALS.screenshotsOff;
  if (!allUrlsGranted) return REFUSALS.screenshotsNotGranted;
  return undefined;
}
