/**
 * `DownloadPort` over `chrome.downloads`. The permission is optional: the API object exists only
 * once Chrome has granted it, so every call checks for it first.
 */
import type { DownloadPort, DownloadRecord, DownloadState } from '../mcp-server/downloads';

export const DOWNLOADS_PERMISSION = 'downloads';

const api = (): typeof chrome.downloads | undefined => globalThis.chrome?.downloads;

function toRecord(item: chrome.downloads.DownloadItem): DownloadRecord {
  return {
    id: item.id,
    filename: item.filename,
    url: item.url,
    finalUrl: item.finalUrl,
    referrer: item.referrer,
    state: item.state as DownloadState,
    ...(item.error ? { error: item.error } : {}),
    bytesReceived: item.bytesReceived,
    totalBytes: item.totalBytes,
    startTime: Date.parse(item.startTime),
  };
}

export interface DownloadSettings {
  reportDownloads: boolean;
  downloadsSince?: number | undefined;
}

export function chromeDownloads(settings: () => DownloadSettings): DownloadPort {
  return {
    reporting: () => settings().reportDownloads && api() !== undefined,
    since: () => settings().downloadsSince ?? Date.now(),
    async search(query) {
      const downloads = api();
      if (!downloads) return [];
      if ('ids' in query) {
        const found = await Promise.all(query.ids.map((id) => downloads.search({ id })));
        return found.flat().map(toRecord);
      }
      const items = await downloads.search({
        startedAfter: new Date(query.sinceMs - 1).toISOString(),
        orderBy: ['-startTime'],
        limit: query.limit,
      });
      return items.map(toRecord);
    },
    onCreated(listener) {
      const downloads = api();
      if (!downloads) return () => {};
      const onCreated = (item: chrome.downloads.DownloadItem) => listener(item.id);
      downloads.onCreated.addListener(onCreated);
      return () => downloads.onCreated.removeListener(onCreated);
    },
  };
}

/** Must be called straight from a click: Chrome shows its prompt only during a user gesture. */
export function requestDownloadsPermission(): Promise<boolean> {
  return chrome.permissions.request({ permissions: [DOWNLOADS_PERMISSION] }).catch(() => false);
}

/** Gives the permission back; the test build holds it as a required one, which Chrome keeps. */
export function releaseDownloadsPermission(): Promise<boolean> {
  return chrome.permissions.remove({ permissions: [DOWNLOADS_PERMISSION] }).catch(() => false);
}
