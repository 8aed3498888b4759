import { describe, expect, it } from 'vitest';
import { ArmingClaims, type ArmingLine } from './claims';

function line(): ArmingLine & { closed: boolean; drop(): void } {
  let onGone: (() => void) | undefined;
  const l = {
    closed: false,
    disconnect() {
      l.closed = true;
    },
    onDisconnect(listener: () => void) {
      onGone = listener;
    },
    drop() {
      onGone?.();
    },
  };
  return l;
}

describe('ArmingClaims', () => {
  it('keeps the lines of a claimed token until the call releases it', () => {
    const claims = new ArmingClaims();
    const release = claims.claim('t1');
    const top = line();
    const frame = line();
    claims.accept('t1', top);
    claims.accept('t1', frame);
    expect(top.closed || frame.closed).toBe(false);
    release();
    expect([top.closed, frame.closed]).toEqual([true, true]);
    expect(claims.size).toBe(0);
    release();
  });

  it('declines lines for tokens it does not hold, and late lines of a released call', () => {
    const claims = new ArmingClaims();
    const stranger = line();
    claims.accept('another-window', stranger);
    expect(stranger.closed).toBe(true);
    claims.claim('t2')();
    const late = line();
    claims.accept('t2', late);
    expect(late.closed).toBe(true);
  });

  it('forgets a line the relay dropped itself', () => {
    const claims = new ArmingClaims();
    const release = claims.claim('t3');
    const gone = line();
    claims.accept('t3', gone);
    gone.drop();
    release();
    expect(gone.closed).toBe(false);
  });
});
