import { describe, expect, it } from 'vitest';
import { FRAME_UNAVAILABLE, stitchFrames } from './snapshot-frames';

describe('stitchFrames', () => {
  it('puts each child frame under its iframe line, one level deeper, recursively', () => {
    const top = { lines: ['- button "Top" [e1]', '- main', '  - iframe "Pay"'], frames: [{ line: 2, frameId: 5 }] };
    const child = { lines: ['- textbox "Card" [f5e2]', '- iframe "Inner"'], frames: [{ line: 1, frameId: 9 }] };
    const grandchild = { lines: ['- button "Confirm" [f9e3]'], frames: [] };
    expect(
      stitchFrames(
        top,
        new Map([
          [5, child],
          [9, grandchild],
        ]),
      ),
    ).toEqual([
      '- button "Top" [e1]',
      '- main',
      '  - iframe "Pay"',
      '    - textbox "Card" [f5e2]',
      '    - iframe "Inner"',
      '      - button "Confirm" [f9e3]',
    ]);
  });

  it('says so when a frame could not be read', () => {
    const top = { lines: ['- iframe "Ad"', '- iframe "Unknown"'], frames: [{ line: 0, frameId: 3 }, { line: 1 }] };
    expect(stitchFrames(top, new Map())).toEqual([
      '- iframe "Ad"',
      `  ${FRAME_UNAVAILABLE}`,
      '- iframe "Unknown"',
      `  ${FRAME_UNAVAILABLE}`,
    ]);
  });

  it('places a frame once, so a page cannot duplicate or loop frames', () => {
    const top = {
      lines: ['- iframe "A"', '- iframe "B"'],
      frames: [
        { line: 0, frameId: 4 },
        { line: 1, frameId: 4 },
      ],
    };
    const looping = { lines: ['- iframe "Self"'], frames: [{ line: 0, frameId: 4 }] };
    expect(stitchFrames(top, new Map([[4, looping]]))).toEqual([
      '- iframe "A"',
      '  - iframe "Self"',
      `    ${FRAME_UNAVAILABLE}`,
      '- iframe "B"',
      `  ${FRAME_UNAVAILABLE}`,
    ]);
  });
});
