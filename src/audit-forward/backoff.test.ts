import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, LONGEST_RETRY_MS, retryDelayMs } from './backoff';

describe('retryDelayMs', () => {
  it('doubles from a second, between half and all of the step', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(1, () => 0)).toBe(FIRST_RETRY_MS / 2);
    expect(retryDelayMs(3, () => 0.5)).toBe(3_000);
  });

  it('stops growing at five minutes', () => {
    expect(retryDelayMs(30, () => 1)).toBe(LONGEST_RETRY_MS);
    expect(retryDelayMs(5_000, () => 1)).toBe(LONGEST_RETRY_MS);
  });
});
