import { describe, expect, it } from 'vitest';
import { forwardingText } from './forwarding-status';

describe('forwardingText', () => {
  it('says where the log goes, what waits and when it last got through', () => {
    expect(forwardingText({ kind: 'on', origin: 'https://audit.example', waiting: 3 })).toBe(
      'Forwarding to https://audit.example: 3 waiting, last sent never.',
    );
    const sent = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(forwardingText({ kind: 'on', origin: 'https://audit.example', waiting: 0, lastSentAt: sent })).toBe(
      `Forwarding to https://audit.example: 0 waiting, last sent ${new Date(sent).toLocaleString()}.`,
    );
  });

  it('adds the last failure, and says why a collector URL was refused', () => {
    expect(
      forwardingText({
        kind: 'on',
        origin: 'https://audit.example',
        waiting: 2,
        lastError: { kind: 'status', status: 503, statusText: 'Service Unavailable' },
      }),
    ).toBe(
      'Forwarding to https://audit.example: 2 waiting, last sent never. The last try failed: the collector answered 503 Service Unavailable; trying again.',
    );
    expect(
      forwardingText({
        kind: 'on',
        origin: 'https://audit.example',
        waiting: 1,
        lastError: { kind: 'unreachable', detail: 'Failed to fetch' },
      }),
    ).toMatch(/The last try failed: the collector could not be reached \(Failed to fetch\); trying again\.$/);
    // Written by a version that kept the failure as text.
    expect(forwardingText({ kind: 'on', origin: 'https://a.example', waiting: 0, lastError: 'it broke' })).toMatch(
      /The last try failed: it broke;/,
    );
    expect(forwardingText({ kind: 'refused', url: 'http://a.example/', reason: 'plain-http' })).toBe(
      'Audit forwarding is off: http://a.example/ is plain http off this machine; use https (http only on 127.0.0.1, localhost or [::1]).',
    );
    expect(forwardingText({ kind: 'off' })).toBe('');
  });
});
