import { describe, expect, it } from 'vitest';
import { NavigationTracker } from './navigation-tracker';

const never = new AbortController().signal;

describe('NavigationTracker', () => {
  it('answers none at once when nothing happened and nothing is expected', async () => {
    expect(await new NavigationTracker().settled({ timeoutMs: 1_000 }, never)).toBe('none');
  });

  it('waits for a pending navigation to complete', async () => {
    const tracker = new NavigationTracker();
    tracker.record({ kind: 'before', url: 'http://a/2' });
    const outcome = tracker.settled({ timeoutMs: 5_000 }, never);
    tracker.record({ kind: 'committed', url: 'http://a/2' });
    setTimeout(() => tracker.record({ kind: 'completed', url: 'http://a/2' }), 10);
    expect(await outcome).toBe('loaded');
    expect(tracker).toMatchObject({ started: true, committed: true, pending: false, url: 'http://a/2' });
  });

  it('waits for an expected navigation to be reported, then for it to finish', async () => {
    const tracker = new NavigationTracker();
    const outcome = tracker.settled({ expectStartMs: 1_000, timeoutMs: 5_000 }, never);
    setTimeout(() => tracker.record({ kind: 'before', url: 'http://a/3' }), 10);
    setTimeout(() => tracker.record({ kind: 'completed', url: 'http://a/3' }), 20);
    expect(await outcome).toBe('loaded');
  });

  it('gives up on an expected navigation that never starts', async () => {
    const started = Date.now();
    expect(await new NavigationTracker().settled({ expectStartMs: 30, timeoutMs: 5_000 }, never)).toBe('none');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reports failures but not navigations superseded by another', async () => {
    const failed = new NavigationTracker();
    failed.record({ kind: 'before', url: 'http://a/x' });
    failed.record({ kind: 'error', url: 'http://a/x', error: 'net::ERR_CONNECTION_REFUSED' });
    expect(await failed.settled({ timeoutMs: 100 }, never)).toBe('failed');
    expect(failed.error).toBe('net::ERR_CONNECTION_REFUSED');

    const superseded = new NavigationTracker();
    superseded.record({ kind: 'before', url: 'http://a/x' });
    superseded.record({ kind: 'error', url: 'http://a/x', error: 'net::ERR_ABORTED' });
    expect(await superseded.settled({ timeoutMs: 100 }, never)).toBe('loaded');
  });

  it('tells same-document changes apart and remembers opened tabs', async () => {
    const tracker = new NavigationTracker();
    tracker.record({ kind: 'same-document', url: 'http://a/#b' });
    tracker.record({ kind: 'opened-tab', tabId: 9 });
    expect(await tracker.settled({ expectStartMs: 50, timeoutMs: 100 }, never)).toBe('same-document');
    expect(tracker.openedTabs).toEqual([9]);
  });

  it('times out on a navigation that never ends, and stops waiting when aborted', async () => {
    const tracker = new NavigationTracker();
    tracker.record({ kind: 'before', url: 'http://a/slow' });
    expect(await tracker.settled({ timeoutMs: 20 }, never)).toBe('timeout');
    const controller = new AbortController();
    const waiting = tracker.settled({ timeoutMs: 10_000 }, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
