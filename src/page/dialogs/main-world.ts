/** Entry of the main-world content script (see hook.ts). */
import { installDialogHook } from './hook';

installDialogHook(window);
