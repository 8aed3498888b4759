/**
 * Entry of the injected bundle. Installs the agent once per document (re-injection is harmless)
 * in the extension's isolated world, where the page's own scripts cannot reach it.
 */
import '../zod-setup';
import { PageAgent } from './agent';
import { watchPasswordFields } from './secret-field';

const KEY = '__tabwrightPageAgent';
const scope = globalThis as unknown as Record<string, unknown>;
// A second injection into the same document must keep the first agent and its refs.
scope[KEY] ??= new PageAgent(document);
watchPasswordFields(document);
