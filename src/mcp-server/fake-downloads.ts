/** Chrome's downloads for tests: records in memory, and `create` is a download starting now. */
import type { DownloadPort, DownloadRecord } from './downloads';

export interface FakeDownloads extends DownloadPort {
  records: DownloadRecord[];
  listeners: Set<(id: number) => void>;
  create(record: DownloadRecord): void;
  reportingOn: boolean;
}

export function fakeDownloads(records: DownloadRecord[] = [], sinceMs = 0): FakeDownloads {
  const listeners = new Set<(id: number) => void>();
  const port: FakeDownloads = {
    records,
    listeners,
    reportingOn: true,
    reporting: () => port.reportingOn,
    since: () => sinceMs,
    async search(query) {
      if ('ids' in query) return records.filter((r) => query.ids.includes(r.id));
      return records
        .filter((r) => r.startTime >= query.sinceMs)
        .sort((a, b) => b.startTime - a.startTime)
        .slice(0, query.limit);
    },
    onCreated(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    create(record) {
      records.push(record);
      for (const listener of listeners) listener(record.id);
    },
  };
  return port;
}
