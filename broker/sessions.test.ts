import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from './sessions';

describe('sessions kept in a state file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'tabwright-sessions-'));
  const file = join(directory, 'state.json');
  afterEach(() => rmSync(file, { force: true }));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('answers a repeat with how its turn ended, and tells a turn the broker stopped in from one that ended', async () => {
    const store = new SessionStore(file);
    const session = store.create('s1');
    session.delivered.set('ended', Promise.resolve({ stopReason: 'cancelled' }));
    session.ended.set('ended', 'cancelled');
    session.delivered.set('running', new Promise(() => {}));
    store.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))[0]).toMatchObject({
      delivered: ['ended', 'running'],
      ended: { ended: 'cancelled' },
    });

    const restarted = new SessionStore(file).get('s1')!;
    await expect(restarted.delivered.get('ended')).resolves.toEqual({ stopReason: 'cancelled' });
    expect(restarted.delivered.get('running')).toBe('cut');
  });

  it('reads a file from before turns’ ends were kept as every turn ended', async () => {
    writeFileSync(file, JSON.stringify([{ id: 's1', delivered: ['a'], received: ['hello'] }]));
    const session = new SessionStore(file).get('s1')!;
    await expect(session.delivered.get('a')).resolves.toEqual({ stopReason: 'end_turn' });
    expect(session.received).toEqual(['hello']);
  });
});
