import { describe, expect, it } from 'vitest';
import { RenderPace } from './render-pace';

const limits = { initialMsPerChar: 0.02, minChars: 200, maxChars: 16_000, sampleChars: 1_000 };

describe('RenderPace', () => {
  it('starts from its pessimistic guess and keeps slices between the bounds', () => {
    const pace = new RenderPace(limits);
    expect(pace.chars(8)).toBe(400);
    expect(pace.chars(0)).toBe(200);
    expect(pace.chars(-3)).toBe(200);
    expect(pace.chars(Infinity)).toBe(16_000);
  });

  it('believes a slower measure at once and a faster one a quarter at a time', () => {
    const pace = new RenderPace(limits);
    pace.record(1_000, 40);
    expect(pace.chars(8)).toBe(200);
    pace.record(1_000, 0);
    expect(pace.chars(4)).toBe(200);
    for (let slice = 0; slice < 40; slice++) pace.record(1_000, 1);
    expect(pace.chars(4)).toBeGreaterThanOrEqual(3_990);
    pace.record(1_000, 8);
    expect(pace.chars(4)).toBe(500);
  });

  it('ignores an empty render', () => {
    const pace = new RenderPace(limits);
    pace.record(0, 100);
    expect(pace.chars(8)).toBe(400);
  });

  it('learns nothing from a short render, whose time is mostly the cost of any render', () => {
    const pace = new RenderPace(limits);
    for (let slice = 0; slice < 40; slice++) pace.record(2_000, 2);
    expect(pace.chars(4)).toBeGreaterThanOrEqual(3_990);
    // A one-line reply that took 2 ms would say 40 characters per 4 ms.
    pace.record(50, 2);
    pace.record(999, 8);
    expect(pace.chars(4)).toBeGreaterThanOrEqual(3_990);
    pace.record(1_000, 8);
    expect(pace.chars(4)).toBe(500);
  });
});
