/** Entry of the isolated-world content script (see relay.ts); the panel reaches it by this global. */
import { RELAY_KEY } from './channel';
import { createDialogRelay } from './relay';

const scope = globalThis as unknown as Record<string, unknown>;
scope[RELAY_KEY] ??= createDialogRelay(document);
