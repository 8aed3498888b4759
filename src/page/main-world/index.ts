/**
 * Entry of the main-world content script, registered at document_start on allowed, granted sites
 * only (see shared/dialog-scripts.ts): the dialog hook and the request signals go in before the
 * page's first script, so neither a saved `window.alert` nor a saved `window.fetch` slips past.
 */
import { REQUEST_EVENT } from '../actions/request-watch';
import { installDialogHook } from './dialog-hook';
import { installRequestSignals } from './request-signals';

installRequestSignals(REQUEST_EVENT);
installDialogHook(window);
