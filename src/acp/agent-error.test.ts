import { describe, expect, it } from 'vitest';
import { agentErrorText, dataMessage } from './agent-error';

describe('agent errors in words', () => {
  it('add the data’s message to a generic one', () => {
    expect(
      agentErrorText({
        message: 'Internal error',
        data: { details: 'stream disconnected before completion: error sending request for url (…/v1/responses)' },
      }),
    ).toBe('Internal error: stream disconnected before completion: error sending request for url (…/v1/responses)');
    expect(agentErrorText({ message: 'Internal error', data: 'Query closed before response received' })).toBe(
      'Internal error: Query closed before response received',
    );
    expect(agentErrorText({ message: 'Authentication required' })).toBe('Authentication required');
    expect(dataMessage({ error: { message: 'quota exceeded' } })).toBe('quota exceeded');
    expect(dataMessage([1, 2])).toBeUndefined();
  });

  it('do not repeat a detail the message already holds', () => {
    expect(agentErrorText({ message: 'Internal error: no model', data: { message: 'no model' } })).toBe(
      'Internal error: no model',
    );
  });

  it('append the agent’s stderr tail, the end kept, lines already quoted left out', () => {
    const stderr = ['starting', 'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges'].join(
      '\n',
    );
    const text = agentErrorText({ message: 'Internal error', data: { details: 'starting', stderr } });
    expect(text).toBe(
      'Internal error: starting\n\nThe agent’s stderr before this:\nError: --dangerously-skip-permissions cannot be used with root/sudo privileges',
    );
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(200)}`).join('\n');
    const bounded = agentErrorText({ message: 'failed', data: { stderr: long } });
    expect(bounded).toContain('line 39');
    expect(bounded).not.toContain('line 0 ');
    expect(bounded.length).toBeLessThan(2_200);
  });

  it('are bounded and lose control characters and terminal escapes', () => {
    const text = agentErrorText({
      message: `\u001b[31mboom\u001b[0m\u0007 ${'m'.repeat(1_000)}`,
      data: { details: `evil\u202e\u0000text ${'d'.repeat(2_000)}` },
    });
    expect(text.startsWith('boom m')).toBe(true);
    expect([...text].some((c) => c < ' ' || c === '\u202e')).toBe(false);
    expect(text.length).toBeLessThan(1_200);
  });
});
