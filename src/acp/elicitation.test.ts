import { describe, expect, it } from 'vitest';
import { ElicitationBroker, type ElicitationPrompt } from './elicitation';

const form = {
  sessionId: 's1',
  mode: 'form' as const,
  message: 'Name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } },
};

describe('ElicitationBroker', () => {
  it('waits for the user, answers once, and cancels what is left on Stop or when the agent withdraws', async () => {
    const shown: ElicitationPrompt[] = [];
    const broker = new ElicitationBroker((prompt) => shown.push(prompt));
    const first = broker.ask(form);
    const withdrawn = new AbortController();
    const second = broker.ask(form, withdrawn.signal);
    const third = broker.ask(form);
    expect(shown).toHaveLength(3);
    expect(broker.pending).toHaveLength(3);

    shown[0]!.answer({ action: 'accept', content: { name: 'Ann' } });
    shown[0]!.answer({ action: 'decline' });
    expect(await first).toEqual({ action: 'accept', content: { name: 'Ann' } });

    withdrawn.abort();
    expect(await second).toEqual({ action: 'cancel' });

    broker.cancelAll();
    expect(await third).toEqual({ action: 'cancel' });
    expect(broker.pending).toEqual([]);
  });
});
