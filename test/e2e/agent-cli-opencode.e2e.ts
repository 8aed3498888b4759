/**
 * opencode (`opencode acp`) with scripted Chat Completions: `OPENCODE_CONFIG` naming an
 * `@ai-sdk/openai-compatible` provider, `OPENCODE_DISABLE_MODELS_FETCH=1`, and its own folders for
 * data and cache. opencode asks nothing before it uses a tool: the panel's gates are the only
 * brake. See agent-cli.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '../peers/scripted-models';
import { BIN, describeAgentCli, quote, SCRATCH_VARIABLE } from './agent-cli';

describeAgentCli({
  name: 'opencode',
  bin: 'opencode',
  command: [
    `HOME="$${SCRATCH_VARIABLE}"`,
    `XDG_CONFIG_HOME="$${SCRATCH_VARIABLE}/config"`,
    `XDG_DATA_HOME="$${SCRATCH_VARIABLE}/data"`,
    `XDG_CACHE_HOME="$${SCRATCH_VARIABLE}/cache"`,
    `XDG_STATE_HOME="$${SCRATCH_VARIABLE}/state"`,
    `OPENCODE_CONFIG="$${SCRATCH_VARIABLE}/opencode.json"`,
    'OPENCODE_DISABLE_MODELS_FETCH=1',
    'OPENCODE_DISABLE_AUTOUPDATE=1',
    quote(join(BIN, 'opencode')),
    'acp',
  ].join(' '),
  startModel: (answer) => startScriptedModel('chat-completions', { wanted: /^tabwright_snapshot$/, answer }),
  prepare(home, modelUrl) {
    writeFileSync(
      join(home, 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        model: 'scripted/scripted',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-dummy-key-for-tests' },
            models: { scripted: { name: 'Scripted' } },
          },
        },
      }),
    );
  },
  seen: (tool) => `tabwright_${tool}`,
  called: /^tabwright_snapshot$/,
});
