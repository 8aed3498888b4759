import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import type { FrontedAgent } from './fronted-agent';
import { maskedAgent } from './masked-agent';
import { maskValues } from './secret-mask';
import type { BrokerSession } from './sessions';

const SECRET = 'sekr1t-value';
const mask = (text: string) => maskValues(text, [SECRET]);
const session = {} as BrokerSession;

function failing(error: unknown): FrontedAgent {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return {
    describe: async () => ({
      agentInfo: { name: `agent ${SECRET}`, version: '1' },
      promptCapabilities: {},
      authMethods: [{ id: `login-${SECRET}`, name: `Log in ${SECRET}`, description: `uses ${SECRET}` }],
    }),
    start: fail,
    restore: fail,
    prompt: fail,
    discard: async () => undefined,
    close: async () => undefined,
    authenticate: fail,
  };
}

describe('what the panel hears from a fronted agent', () => {
  it('has its errors masked, message and data alike, for every request', async () => {
    const agent = maskedAgent(failing(new RequestError(-32603, `refused ${SECRET}`, { details: [SECRET] })), mask);
    for (const run of [
      () => agent.start(session),
      () => agent.restore(session),
      () => agent.prompt(session, [], new AbortController().signal),
      () => agent.authenticate!({ methodId: 'login' }),
    ]) {
      const error = (await run().catch((failure: unknown) => failure)) as RequestError;
      expect(error).toBeInstanceOf(RequestError);
      expect([error.code, error.message, error.data]).toEqual([-32603, 'refused ***', { details: ['***'] }]);
    }
    const plain = maskedAgent(failing(new Error(`spawn failed: ${SECRET}`)), mask);
    await expect(plain.start(session)).rejects.toThrow(/^spawn failed: \*\*\*$/);
  });

  it('has who it is and how it signs in masked, ids kept, and offers only the methods the agent has', async () => {
    const agent = maskedAgent(failing(new Error('x')), mask);
    const identity = await agent.describe({ protocolVersion: 1 });
    expect(identity.agentInfo.name).toBe('agent ***');
    // The id is what the panel sends back to sign in: it stays the agent's.
    expect(identity.authMethods![0]).toEqual({ id: `login-${SECRET}`, name: 'Log in ***', description: 'uses ***' });
    expect(agent.setMode).toBeUndefined();
    expect(agent.end).toBeUndefined();
    expect(agent.authenticate).toBeTypeOf('function');
  });
});
