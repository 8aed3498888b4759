/**
 * Stitches per-frame snapshots into one tree: each child frame's lines go under the `- iframe`
 * line that holds it, one level deeper. Which iframe holds which document comes from the frames'
 * handshake; a frame nobody could read says so instead of silently vanishing.
 */

export interface FrameSnapshot {
  lines: string[];
  frames: Array<{ line: number; frameId?: number }>;
}

export const FRAME_UNAVAILABLE = '# (frame content not available: its site is not allowed, or it is still loading)';

export function stitchFrames(top: FrameSnapshot, byFrame: ReadonlyMap<number, FrameSnapshot>): string[] {
  const out: string[] = [];
  const placed = new Set<number>([0]);
  const emit = (snapshot: FrameSnapshot, prefix: string) => {
    const slots = new Map((snapshot.frames ?? []).map((slot) => [slot.line, slot.frameId]));
    snapshot.lines.forEach((line, index) => {
      out.push(prefix + line);
      if (!slots.has(index)) return;
      const frameId = slots.get(index);
      const childPrefix = prefix + ' '.repeat(line.length - line.trimStart().length + 2);
      const child = frameId === undefined ? undefined : byFrame.get(frameId);
      // A frame is placed once, so a page cannot make a frame appear twice (or loop).
      if (!child || placed.has(frameId!)) {
        out.push(childPrefix + FRAME_UNAVAILABLE);
        return;
      }
      placed.add(frameId!);
      emit(child, childPrefix);
    });
  };
  emit(top, '');
  return out;
}
