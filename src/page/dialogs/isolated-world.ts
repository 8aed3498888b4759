/** Entry of the isolated-world content script (see relay.ts); the panel reaches it by this global. */
import { RELAY_KEY } from './channel';
import { createDialogRelay, installedRelay } from './relay';

if (!installedRelay(globalThis))
  (globalThis as unknown as Record<string, unknown>)[RELAY_KEY] = createDialogRelay(document);
