import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const policy = { baseMs: 100, capMs: 5_000 };
  it('doubles per attempt within the jitter band', () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ceiling = 100 * 2 ** attempt;
      expect(backoffDelay(attempt, policy, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(attempt, policy, () => 1)).toBe(ceiling);
    }
  });
  it('never exceeds the cap, however many attempts', () => {
    for (let attempt = 0; attempt < 60; attempt++) {
      expect(backoffDelay(attempt, policy, () => 0.999)).toBeLessThanOrEqual(5_000);
    }
    expect(backoffDelay(1_000, policy, () => 1)).toBe(5_000);
  });
  it('spreads retries apart', () => {
    const delays = new Set(Array.from({ length: 20 }, (_, i) => backoffDelay(6, policy, () => i / 20)));
    expect(delays.size).toBe(20);
  });
});
