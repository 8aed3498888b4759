/**
 * The usual end-to-end set-up in one call: the project's broker, the fixture server and Chromium
 * with the built extension, started before the file's tests and stopped after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { startBroker, type BrokerOptions, type RunningBroker } from '../../broker/server';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { launchWithExtension, type Launched } from './harness';

export interface Rig {
  readonly broker: RunningBroker;
  readonly fixtures: FixtureServer;
  readonly launched: Launched;
}

export function useRig(brokerOptions: BrokerOptions): Rig {
  const parts: { -readonly [K in keyof Rig]?: Rig[K] } = {};
  beforeAll(async () => {
    parts.broker = await startBroker(brokerOptions);
    parts.fixtures = await startFixtureServer();
    parts.launched = await launchWithExtension();
  });
  afterAll(async () => {
    await parts.launched?.close();
    await parts.broker?.close();
    await parts.fixtures?.close();
  });
  const get = <K extends keyof Rig>(key: K): Rig[K] => {
    const value = parts[key];
    if (!value) throw new Error(`the rig's ${key} is not started (used outside a test?)`);
    return value as Rig[K];
  };
  return {
    get broker() {
      return get('broker');
    },
    get fixtures() {
      return get('fixtures');
    },
    get launched() {
      return get('launched');
    },
  };
}
