/**
 * Claude Code (claude-agent-acp) with a scripted Messages API: `ANTHROPIC_BASE_URL`, a key, its own
 * `CLAUDE_CONFIG_DIR`, and `IS_SANDBOX=1` when run as root (a CI container). See agent-cli.ts.
 */
import { join } from 'node:path';
import { startScriptedAnthropic } from '../peers/scripted-anthropic';
import { BIN, describeAgentCli, MODEL_VARIABLE, quote, SCRATCH_VARIABLE } from './agent-cli';

describeAgentCli({
  name: 'Claude',
  bin: 'claude-agent-acp',
  command: [
    `ANTHROPIC_BASE_URL="$${MODEL_VARIABLE}"`,
    `CLAUDE_CONFIG_DIR="$${SCRATCH_VARIABLE}"`,
    'ANTHROPIC_API_KEY=sk-ant-dummy-key-for-tests',
    'DISABLE_AUTOUPDATER=1',
    'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
    // As root (a CI container) Claude Code starts only when told it is sandboxed.
    ...(process.getuid?.() === 0 ? ['IS_SANDBOX=1'] : []),
    quote(join(BIN, 'claude-agent-acp')),
  ].join(' '),
  startModel: (answer) => startScriptedAnthropic(/snapshot$/, answer),
  seen: (tool) => `mcp__tabwright__${tool}`,
  called: /^mcp__tabwright__snapshot$/,
});
