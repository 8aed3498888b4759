/**
 * Entry of the main-world content script, registered at document_start on allowed, granted sites
 * only (see shared/dialog-scripts.ts): the dialog hook, the request signals, the WebMCP
 * registration hook and the listener record go in before the page's first script, so neither a
 * saved `window.alert`, a saved `window.fetch`, a tool registered by the page's first script nor
 * a listener it adds slips past.
 */
import { REQUEST_EVENT } from '../actions/request-watch';
import { installDialogHook } from './dialog-hook';
import { installListenerRecord } from './listener-record';
import { installRequestSignals } from './request-signals';
import { installToolRegistrationHook } from './tool-registrations';

installToolRegistrationHook(window);
installRequestSignals(REQUEST_EVENT);
installDialogHook(window);
installListenerRecord(window);
