/**
 * What the agent brought home: downloads as tools report them. A download is shown only when both
 * the page that started it (its referrer) and where it finally came from pass the origin gate, and
 * only its file name (never the folder), size, state and final origin; its contents are never read.
 * Chrome is behind `DownloadPort`, so this is tested with fakes.
 */
import { neutraliseText } from '../shared/text/line';
import { siteOrigin } from './gates/origin';
import type { ResponseBuilder } from './response';

export type DownloadState = 'in_progress' | 'interrupted' | 'complete';

export interface DownloadRecord {
  id: number;
  /** Where Chrome saves it (a full local path, empty until chosen); only the last part is shown. */
  filename: string;
  url: string;
  /** After redirects; empty until known. */
  finalUrl: string;
  /** The page the download was started from; empty when the browser did not send one. */
  referrer: string;
  state: DownloadState;
  /** Chrome's reason when interrupted (e.g. NETWORK_FAILED, USER_CANCELED). */
  error?: string;
  bytesReceived: number;
  /** -1 or 0 when the server did not say. */
  totalBytes: number;
  startTime: number;
}

export interface DownloadPort {
  /** The user turned "Report downloads" on and Chrome holds the permission. */
  reporting(): boolean;
  /** When reporting was turned on; downloads that started earlier are never shown. */
  since(): number;
  /** Downloads started at or after `sinceMs`, newest first, at most `limit`; or exactly those with `ids`. */
  search(query: { sinceMs: number; limit: number } | { ids: number[] }): Promise<DownloadRecord[]>;
  /** Calls `listener` with each new download's id; returns the unsubscribe. */
  onCreated(listener: (id: number) => void): () => void;
}

/** The gate's decision for one URL (the origin gate's `originRefusal`, nothing else). */
export type DestinationCheck = (url: string) => Promise<string | undefined>;

export const NOT_TURNED_ON =
  'Download reporting is off: the user has not turned on "Report downloads" in Tabwright settings, so no ' +
  'downloads can be listed. Ask the user to turn it on if you need to see them.';

/** How long an action's report waits for a download to begin after the action itself has ended. */
export const DOWNLOAD_GRACE_MS = 400;

/** The ones the gates let through: referrer and final URL (the URL asked for, before it is known) both allowed. */
export async function shownDownloads(records: DownloadRecord[], check: DestinationCheck): Promise<DownloadRecord[]> {
  const shown: DownloadRecord[] = [];
  for (const record of records) {
    if (!record.referrer) continue;
    if ((await check(record.referrer)) !== undefined) continue;
    if ((await check(record.finalUrl || record.url)) !== undefined) continue;
    shown.push(record);
  }
  return shown;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The last part of a local path, on any platform. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? '';
}

function sizeOf(record: DownloadRecord): string {
  if (record.state === 'complete') return formatBytes(record.bytesReceived);
  const total = record.totalBytes > 0 ? ` of ${formatBytes(record.totalBytes)}` : '';
  return `${formatBytes(record.bytesReceived)}${total} so far`;
}

function stateOf(record: DownloadRecord): string {
  if (record.state === 'complete') return 'complete';
  if (record.state === 'in_progress') return 'in progress';
  return `interrupted${record.error ? ` (${record.error})` : ''}`;
}

/** One line per download; the file name is the site's choice, so it is neutralised like page text. */
export function describeDownload(record: DownloadRecord): string {
  const name = neutraliseText(baseName(record.filename)) || '(name not chosen yet)';
  const origin = siteOrigin(record.finalUrl || record.url) ?? 'an unknown origin';
  return `- [${record.id}] "${name}" — ${sizeOf(record)}, ${stateOf(record)}, from ${origin}`;
}

export function structuredDownload(record: DownloadRecord): Record<string, unknown> {
  return {
    id: record.id,
    fileName: baseName(record.filename),
    bytes: record.bytesReceived,
    ...(record.totalBytes > 0 ? { totalBytes: record.totalBytes } : {}),
    state: record.state,
    ...(record.error ? { error: record.error } : {}),
    origin: siteOrigin(record.finalUrl || record.url),
    startTime: new Date(record.startTime).toISOString(),
  };
}

/** Notes the downloads Chrome creates while an action runs. */
export class DownloadWatch {
  readonly #ids: number[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: () => void;

  constructor(private readonly port: DownloadPort) {
    this.#unsubscribe = port.onCreated((id) => {
      this.#ids.push(id);
      for (const wake of this.#waiters) wake();
    });
  }

  /**
   * The downloads the action started. A download begins only once the server's answer arrives,
   * which can be just after the action has ended, so when none came yet it waits `graceMs` for one.
   */
  async started(graceMs: number, signal: AbortSignal): Promise<DownloadRecord[]> {
    if (this.#ids.length === 0 && graceMs > 0 && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, graceMs);
        signal.addEventListener('abort', done, { once: true });
        this.#waiters.add(done);
      });
    }
    return this.#ids.length ? this.port.search({ ids: [...this.#ids] }) : [];
  }

  dispose(): void {
    this.#unsubscribe();
    for (const wake of this.#waiters) wake();
  }
}

/** Adds what an action downloaded (what the gates let through) to its result. */
export async function reportStartedDownloads(
  watch: DownloadWatch,
  check: DestinationCheck,
  response: ResponseBuilder,
  signal: AbortSignal,
): Promise<void> {
  const shown = await shownDownloads(await watch.started(DOWNLOAD_GRACE_MS, signal), check);
  if (shown.length === 0) return;
  const heading = shown.length === 1 ? 'This action started a download:' : 'This action started downloads:';
  response.pageText('downloads', `${heading}\n${shown.map(describeDownload).join('\n')}`);
}
