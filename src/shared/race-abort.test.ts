import { afterEach, describe, expect, it, vi } from 'vitest';
import { raceAbort } from './race-abort';

describe('raceAbort', () => {
  const unhandled = vi.fn();
  process.on('unhandledRejection', unhandled);
  afterEach(() => unhandled.mockClear());

  it('gives the work’s result, or its failure, while the signal holds', async () => {
    const signal = new AbortController().signal;
    await expect(raceAbort(Promise.resolve(4), signal)).resolves.toBe(4);
    await expect(raceAbort(Promise.reject(new Error('page gone')), signal)).rejects.toThrow('page gone');
    await expect(raceAbort(Promise.resolve(5), undefined)).resolves.toBe(5);
  });

  it('stops waiting with the reason once the signal aborts, and the late failure goes unheard', async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const work = new Promise<number>((_, reject) => (fail = reject));
    const raced = raceAbort(work, controller.signal);
    controller.abort(new Error('held by a dialog'));
    await expect(raced).rejects.toThrow('held by a dialog');
    fail(new Error('too late'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('does not wait at all on an aborted signal, and the work’s failure goes unheard', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(raceAbort(Promise.reject(new Error('not sent')), controller.signal)).rejects.toThrow('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).not.toHaveBeenCalled();
  });
});
