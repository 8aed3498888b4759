/**
 * File contents as tool arguments carry them (base64): checked and measured without decoding, and
 * summarised by their size wherever arguments are shown (confirmation card, audit log), since the
 * bytes are the user's data and mean nothing on a card.
 */
import { fileSize } from '../page/input-states';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** Standard base64 (RFC 4648 §4), padding optional, no whitespace. */
export function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/** How many bytes `text` decodes to (it being base64). */
export function decodedBytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const length = text.length - padding;
  return Math.floor((length * 3) / 4);
}

/** What a card or the audit log shows in place of a file's contents. */
export function contentSummary(value: unknown): string {
  if (typeof value !== 'string') return '(contents not shown)';
  return isBase64(value) ? `(${fileSize(decodedBytes(value))}, contents not shown)` : '(not base64, not shown)';
}
