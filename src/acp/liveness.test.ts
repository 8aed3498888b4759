import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock';
import { LivenessMonitor } from './liveness';

function setup(answer: 'always' | 'never', turnRunning = () => false) {
  const clock = new FakeClock();
  const log: string[] = [];
  let probes = 0;
  const monitor = new LivenessMonitor({
    clock,
    intervalMs: 1_000,
    timeoutMs: 200,
    probe: () => {
      probes++;
      return answer === 'always' ? Promise.resolve() : new Promise(() => undefined);
    },
    turnRunning,
    onResponsive: (ok) => log.push(ok ? 'responsive' : 'unresponsive'),
    onDead: () => log.push('dead'),
  });
  return { clock, log, monitor, probes: () => probes };
}

describe('LivenessMonitor', () => {
  it('does not probe while frames keep arriving', async () => {
    const { clock, monitor, probes } = setup('always');
    monitor.start();
    for (let i = 0; i < 20; i++) {
      await clock.advance(500);
      monitor.noteInbound();
    }
    expect(probes()).toBe(0);
    monitor.stop();
  });

  it('probes a silent socket and stays healthy when answered', async () => {
    const { clock, monitor, probes, log } = setup('always');
    monitor.start();
    await clock.advance(5_500);
    expect(probes()).toBeGreaterThanOrEqual(4);
    expect(log).toEqual([]);
    monitor.stop();
  });

  it('marks unresponsive after one miss and reconnects after two', async () => {
    const { clock, monitor, log } = setup('never');
    monitor.start();
    await clock.advance(1_200);
    expect(log).toEqual(['unresponsive']);
    await clock.advance(1_200);
    expect(log).toEqual(['unresponsive', 'dead']);
  });

  it('never reconnects while a turn is running, only reports', async () => {
    let running = true;
    const { clock, monitor, log } = setup('never', () => running);
    monitor.start();
    await clock.advance(10_000);
    expect(log).toEqual(['unresponsive']);
    running = false;
    await clock.advance(1_300);
    expect(log).toEqual(['unresponsive', 'dead']);
  });

  it('recovers the badge when a frame arrives after a miss', async () => {
    const { clock, monitor, log } = setup('never');
    monitor.start();
    await clock.advance(1_200);
    monitor.noteInbound();
    expect(log).toEqual(['unresponsive', 'responsive']);
    expect(monitor.misses).toBe(0);
    monitor.stop();
  });
});

describe('LivenessMonitor races', () => {
  it('does not count a probe as missed when other frames arrived while it was out', async () => {
    const clock = new FakeClock();
    const log: string[] = [];
    const monitor = new LivenessMonitor({
      clock,
      intervalMs: 1_000,
      timeoutMs: 200,
      probe: () => new Promise(() => undefined),
      turnRunning: () => true,
      onResponsive: (ok) => log.push(ok ? 'responsive' : 'unresponsive'),
      onDead: () => log.push('dead'),
    });
    monitor.start();
    await clock.advance(1_100);
    monitor.noteInbound();
    await clock.advance(150);
    expect(log).toEqual([]);
    monitor.stop();
  });
});
