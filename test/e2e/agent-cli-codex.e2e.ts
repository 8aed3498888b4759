/**
 * Codex (codex-acp) with a scripted Responses API: a custom provider in its `config.toml` (an
 * `env_key`, `wire_api = "responses"`, `supports_websockets = false`), which needs no sign-in. Codex
 * offers each MCP server's tools in a namespace (`mcp__tabwright`). See agent-cli.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '../peers/scripted-models';
import { BIN, describeAgentCli, quote, SCRATCH_VARIABLE } from './agent-cli';

describeAgentCli({
  name: 'Codex',
  bin: 'codex-acp',
  command: [
    `CODEX_HOME="$${SCRATCH_VARIABLE}/codex"`,
    'SCRIPTED_API_KEY=sk-dummy-key-for-tests',
    quote(join(BIN, 'codex-acp')),
  ].join(' '),
  startModel: (answer) => startScriptedModel('responses', { wanted: /^mcp__tabwright\/snapshot$/, answer }),
  prepare(home, modelUrl) {
    mkdirSync(join(home, 'codex'), { recursive: true });
    writeFileSync(
      join(home, 'codex', 'config.toml'),
      [
        // A model Codex knows, so it does not warn in the chat that it lacks the model's metadata.
        'model = "gpt-5.4-mini"',
        'model_provider = "scripted"',
        '',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${modelUrl}/v1"`,
        'env_key = "SCRIPTED_API_KEY"',
        'wire_api = "responses"',
        'supports_websockets = false',
        '',
      ].join('\n'),
    );
  },
  seen: (tool) => `mcp__tabwright/${tool}`,
  called: /^mcp__tabwright\/snapshot$/,
});
