import { describe, expect, it } from 'vitest';
import { DEMO_AGENT_INFO_NAME, emptyChatText, type EmptyChatAgent } from './empty-chat';

const agent = (fields: Partial<EmptyChatAgent> = {}): EmptyChatAgent => ({
  name: 'Claude',
  status: 'connected',
  enabled: true,
  agentInfoName: 'claude-code',
  ...fields,
});

describe('what an empty chat says', () => {
  it('suggests "help" only when the demo agent is the one listening', () => {
    expect(emptyChatText([agent({ name: 'Demo', agentInfoName: DEMO_AGENT_INFO_NAME })])).toEqual({
      key: 'emptyChatDemo',
      substitutions: ['Demo'],
    });
    expect(emptyChatText([agent(), agent({ name: 'Demo', agentInfoName: DEMO_AGENT_INFO_NAME })])).toEqual({
      key: 'emptyChatAgent',
      substitutions: ['Claude'],
    });
  });

  it('names a real agent, and one that never said who it is', () => {
    expect(emptyChatText([agent({ agentInfoName: undefined })]).key).toBe('emptyChatAgent');
  });

  it('says the token was refused when no agent is connected and one was refused', () => {
    expect(emptyChatText([agent({ status: 'auth_failed' }), agent({ name: 'Codex', status: 'unreachable' })])).toEqual({
      key: 'emptyChatAuthFailed',
      substitutions: ['Claude'],
    });
  });

  it('says who the message will go to while agents are on their way, and ignores turned-off ones', () => {
    expect(emptyChatText([agent({ status: 'connecting' }), agent({ name: 'Off', enabled: false })])).toEqual({
      key: 'emptyChatWaiting',
      substitutions: ['Claude'],
    });
    expect(emptyChatText([agent({ enabled: false })]).key).toBe('emptyChatNoAgent');
  });
});
