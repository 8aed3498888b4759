import { describe, expect, it } from 'vitest';
import { batchText, Outbox } from './outbox';

function outbox() {
  let n = 0;
  return new Outbox(() => `id${++n}`);
}

describe('Outbox', () => {
  it('batches everything pending into one turn, in order', () => {
    const box = outbox();
    box.enqueue('one', 1);
    box.enqueue('two', 2);
    const batch = box.take()!;
    expect(batch.messages.map((m) => m.text)).toEqual(['one', 'two']);
    expect(batchText(batch)).toBe('one\n\ntwo');
    expect(box.pending).toHaveLength(0);
  });

  it('keeps messages typed during a turn for the next batch', () => {
    const box = outbox();
    box.enqueue('one', 1);
    const first = box.take()!;
    box.enqueue('two', 2);
    box.enqueue('three', 3);
    expect(box.take()).toBe(first);
    box.complete();
    expect(box.take()!.messages.map((m) => m.text)).toEqual(['two', 'three']);
  });

  it('re-sends an interrupted batch with the same id', () => {
    const box = outbox();
    box.enqueue('hello', 1);
    const batch = box.take()!;
    expect(box.interrupted(false)).toBe('resend');
    const again = box.take()!;
    expect(again.id).toBe(batch.id);
    expect(again.attempts).toBe(2);
  });

  it('re-sends an answered batch only to a broker that drops repeats', () => {
    const box = outbox();
    box.enqueue('hello', 1);
    box.take();
    box.noteAnswered();
    expect(box.interrupted(true)).toBe('resend');
    expect(box.inflight).toBeDefined();
    expect(box.interrupted(false)).toBe('lost-after-reply');
    expect(box.inflight).toBeUndefined();
  });

  it('owes a replacement connection the unanswered batch in flight and what is pending, in order', () => {
    const box = outbox();
    box.enqueue('a', 1);
    box.take();
    box.enqueue('b', 2);
    expect(box.owed().map((m) => m.text)).toEqual(['a', 'b']);
    box.noteAnswered();
    // The agent has started answering "a": sending it again would say it twice.
    expect(box.owed().map((m) => m.text)).toEqual(['b']);
  });

  it('restores from a snapshot', () => {
    const box = outbox();
    box.enqueue('a', 1);
    box.take();
    box.enqueue('b', 2);
    const restored = new Outbox(() => 'x', box.snapshot());
    expect(restored.inflight?.messages[0]?.text).toBe('a');
    expect(restored.pending.map((m) => m.text)).toEqual(['b']);
  });
});
