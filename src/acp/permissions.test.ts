import { describe, expect, it } from 'vitest';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk/unstable';
import { PermissionBroker, type PermissionPrompt, type RememberedChoice } from './permissions';

const request = (title: string): RequestPermissionRequest => ({
  sessionId: 's',
  toolCall: { toolCallId: 't', title },
  options: [
    { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'always', name: 'Always', kind: 'allow_always' },
    { optionId: 'never', name: 'Never', kind: 'reject_always' },
  ],
});

function setup() {
  const memory = new Map<string, RememberedChoice>();
  const shown: PermissionPrompt[] = [];
  const broker = new PermissionBroker({ get: (t) => memory.get(t), set: (t, c) => void memory.set(t, c) }, (p) =>
    shown.push(p),
  );
  return { memory, shown, broker };
}

describe('PermissionBroker', () => {
  it("answers with the user's choice", async () => {
    const { broker, shown } = setup();
    const answer = broker.ask(request('write file'));
    shown[0]!.answer('once');
    expect(await answer).toEqual({ outcome: { outcome: 'selected', optionId: 'once' } });
  });

  it('remembers "always" answers per tool and answers later requests without asking', async () => {
    const { broker, shown, memory } = setup();
    const first = broker.ask(request('write file'));
    shown[0]!.answer('never');
    await first;
    expect(memory.get('write file')).toBe('reject_always');
    expect(await broker.ask(request('write file'))).toEqual({ outcome: { outcome: 'selected', optionId: 'never' } });
    expect(shown).toHaveLength(1);
    void broker.ask(request('other tool'));
    expect(shown).toHaveLength(2);
  });

  it('cancels everything pending; late or unknown answers change nothing', async () => {
    const { broker, shown } = setup();
    const a = broker.ask(request('a'));
    const b = broker.ask(request('b'));
    broker.cancelAll();
    expect(await a).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(await b).toEqual({ outcome: { outcome: 'cancelled' } });
    shown[0]!.answer('always');
    expect(broker.pending).toHaveLength(0);
  });

  it('treats an option id the agent did not offer as cancelled', async () => {
    const { broker, shown } = setup();
    const answer = broker.ask(request('x'));
    shown[0]!.answer('made-up');
    expect(await answer).toEqual({ outcome: { outcome: 'cancelled' } });
  });
});
