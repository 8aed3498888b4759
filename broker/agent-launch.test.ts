import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-launch';

describe('the environment an agent starts with', () => {
  it('keeps the broker’s own, without any variable holding the broker’s token', () => {
    const env = agentEnvironment(
      {
        PATH: '/usr/bin',
        OPENAI_API_KEY: 'key-the-agent-needs',
        TABWRIGHT_TOKEN: 'brok3r-token',
        MY_BROKER_SECRET: 'brok3r-token',
        TABWRIGHT_MCP_TOKEN: 'left-over',
      },
      'brok3r-token',
    );
    expect(env).toEqual({ PATH: '/usr/bin', OPENAI_API_KEY: 'key-the-agent-needs' });
  });
});
