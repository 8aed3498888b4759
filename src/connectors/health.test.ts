import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConnectorHealth, type HealthProbe } from './health';
import { AuthExpiredError, defineConnector } from './sdk';

const connector = defineConnector({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  matches: ['http://app.test/*'],
  tools: {
    read: { description: 'Read', input: z.object({}), destructive: false, run: async () => ({ data: {} }) },
  },
  healthCheck: async () => true,
});

function monitor(answer: () => Promise<boolean | { state: 'no-site' | 'not-allowed'; reason?: string }>) {
  const intervals: Array<{ fn: () => void; ms: number }> = [];
  const probe: HealthProbe = { check: answer, signInUrl: () => 'http://app.test/login' };
  const health = new ConnectorHealth(probe, () => [connector], {
    setInterval: (fn, ms) => intervals.push({ fn, ms }),
    clearInterval: () => intervals.splice(0),
    now: () => 42,
  });
  return { health, intervals };
}

describe('connector health', () => {
  it('finds each state', async () => {
    expect((await monitor(async () => true).health.check(connector)).state).toBe('healthy');
    const signedOut = await monitor(async () => false).health.check(connector);
    expect(signedOut).toEqual({ state: 'signed-out', signInUrl: 'http://app.test/login', checkedAt: 42 });
    const expired = await monitor(async () => Promise.reject(new AuthExpiredError())).health.check(connector);
    expect(expired.state).toBe('signed-out');
    const failing = await monitor(async () => Promise.reject(new Error('Did not find .report'))).health.check(
      connector,
    );
    expect(failing).toMatchObject({ state: 'failing', reason: 'Did not find .report' });
    const blocked = await monitor(async () => ({
      state: 'not-allowed' as const,
      reason: 'not an allowed site',
    })).health.check(connector);
    expect(blocked).toMatchObject({ state: 'not-allowed', reason: 'not an allowed site' });
  });

  it('checks on start and then on its interval, sharing a check that is already running', async () => {
    let calls = 0;
    let release!: () => void;
    const { health, intervals } = monitor(
      () => new Promise<boolean>((resolve) => ((release = () => resolve(true)), calls++)),
    );
    const changes: string[] = [];
    health.onChange((id, status) => changes.push(`${id} ${status.state}`));
    health.start(10);
    expect(intervals[0]!.ms).toBe(600_000);
    intervals[0]!.fn();
    expect(calls).toBe(1);
    release();
    await health.check(connector);
    expect(health.status('demo').state).toBe('healthy');
    expect(changes).toEqual(['demo checking', 'demo healthy']);
    health.stop();
    expect(intervals).toHaveLength(0);
  });

  it('learns from tool calls too', () => {
    const { health } = monitor(async () => true);
    health.signedOut(connector, 'http://app.test/login');
    expect(health.status('demo')).toMatchObject({ state: 'signed-out', signInUrl: 'http://app.test/login' });
    health.worked(connector);
    expect(health.status('demo').state).toBe('healthy');
  });
});
