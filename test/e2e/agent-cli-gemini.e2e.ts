/**
 * Gemini CLI with a scripted Gemini API: `GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL`, and a trusted
 * working folder (Gemini starts a client's MCP servers only there). See agent-cli.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '../peers/scripted-models';
import { BIN, describeAgentCli, quote, SCRATCH_VARIABLE, MODEL_VARIABLE } from './agent-cli';
import { ROOT } from './harness';

describeAgentCli({
  name: 'Gemini',
  bin: 'gemini',
  command: [
    `HOME="$${SCRATCH_VARIABLE}"`,
    'GEMINI_API_KEY=dummy-gemini-key-for-tests',
    `GOOGLE_GEMINI_BASE_URL="$${MODEL_VARIABLE}"`,
    quote(join(BIN, 'gemini')),
    '--experimental-acp',
  ].join(' '),
  startModel: (answer) => startScriptedModel('gemini', { wanted: /^mcp_tabwright_snapshot$/, answer }),
  prepare(home) {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    // The broker's agents work where it was started: the repository, trusted here.
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ROOT]: 'TRUST_FOLDER' }));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { folderTrust: { enabled: true } } }),
    );
  },
  seen: (tool) => `mcp_tabwright_${tool}`,
  called: /^mcp_tabwright_snapshot$/,
});
