/**
 * Qwen Code (`qwen --acp`) with scripted Chat Completions: `OPENAI_API_KEY`, `OPENAI_BASE_URL` and
 * `OPENAI_MODEL`. Qwen offers MCP tools to the model only through its own `tool_search` (which
 * returns their declarations) and `tool_call`, so the scripted model searches first. See
 * agent-cli.ts.
 */
import { join } from 'node:path';
import { startScriptedModel } from '../peers/scripted-models';
import { BIN, describeAgentCli, MODEL_VARIABLE, quote, SCRATCH_VARIABLE } from './agent-cli';

describeAgentCli({
  name: 'Qwen',
  bin: 'qwen',
  command: [
    `HOME="$${SCRATCH_VARIABLE}"`,
    'OPENAI_API_KEY=sk-dummy-key-for-tests',
    `OPENAI_BASE_URL="$${MODEL_VARIABLE}/v1"`,
    'OPENAI_MODEL=scripted',
    quote(join(BIN, 'qwen')),
    '--acp',
  ].join(' '),
  startModel: (answer) =>
    startScriptedModel('chat-completions', {
      wanted: /^mcp__tabwright\w*__snapshot$/,
      answer,
      search: { tool: 'tool_search', query: 'snapshot', via: 'tool_call' },
    }),
  called: /^mcp__tabwright\w*__snapshot$/,
  // Qwen names its cards after its own tools: the search, then the call it makes through `tool_call`.
  cards: [/^ToolSearch: snapshot$/, /^ToolCall$/],
});
