/**
 * Entry of the main-world content script, registered at document_start on allowed, granted sites
 * only (see shared/dialog-scripts.ts): the dialog hook, the request signals and the WebMCP
 * registration hook go in before the page's first script, so neither a saved `window.alert`, a
 * saved `window.fetch` nor a tool registered by the page's first script slips past.
 */
import { REQUEST_EVENT } from '../actions/request-watch';
import { installDialogHook } from './dialog-hook';
import { installRequestSignals } from './request-signals';
import { installToolRegistrationHook } from './tool-registrations';

installToolRegistrationHook(window);
installRequestSignals(REQUEST_EVENT);
installDialogHook(window);
