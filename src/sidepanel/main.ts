/**
 * The panel's entry point. zod's JIT is turned off before anything else loads (see zod-setup).
 *
 * The panel's code is evaluated in steps, each in a task of its own: evaluating it all at once
 * would block the panel for hundreds of milliseconds on a slow machine (a long task), before the
 * first paint. Each step evaluates the modules it brings that no earlier step did; the extension's
 * own chunks are all it loads (MV3 allows no remote code).
 */
import '../zod-setup';
import { countChromeCalls } from '../platform/chrome-call-counts';
import { tickAgent } from '../platform/page-tick';
import { loadInSteps, nextTask } from './load-steps';

declare const __TABWRIGHT_TEST_BUILD__: boolean;
// Tests read what one tool call cost in Chrome API calls (test build only; dropped from the release).
if (__TABWRIGHT_TEST_BUILD__) {
  const isTick = (args: readonly unknown[]) => (args[0] as { func?: unknown } | undefined)?.func === tickAgent;
  const calls = countChromeCalls(chrome, (key, args) => (isTick(args) ? `${key} (clock tick)` : undefined));
  Object.assign(globalThis, { tabwrightChromeCalls: calls });
}

async function boot(): Promise<void> {
  await loadInSteps([
    () => import('@agentclientprotocol/sdk/unstable'),
    () => import('tldts'),
    () => import('./markdown/engine'),
    () => import('../mcp-server/tools'),
    () => import('../connectors/hub'),
    () => import('./panel-services'),
  ]);
  const { startPanel } = await import('./panel');
  // Starting the panel builds its views: a task of its own, apart from evaluating the module.
  await nextTask();
  await startPanel();
}

boot().catch((error: unknown) => {
  console.error('Tabwright panel failed to start', error);
  const main = document.getElementById('main');
  if (main) main.textContent = `Tabwright could not start: ${(error as Error)?.message ?? String(error)}`;
});
