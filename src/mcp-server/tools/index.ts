/** Every browser tool, in the order `tools/list` shows them. */
import type { BrowserTool } from '../tool';
import { click } from './click';
import { closeTab } from './close-tab';
import { downloads } from './downloads';
import { drag } from './drag';
import { fillForm } from './fill-form';
import { history } from './history';
import { hover } from './hover';
import { navigate } from './navigate';
import { newTab } from './new-tab';
import { pressKey } from './press-key';
import { reload } from './reload';
import { scroll } from './scroll';
import { selectOption } from './select-option';
import { switchTab } from './switch-tab';
import { type } from './type';
import { uploadFile } from './upload-file';
import { find } from './find';
import { getText } from './get-text';
import { readDom } from './read-dom';
import { screenshot } from './screenshot';
import { snapshot } from './snapshot';
import { tabs } from './tabs';
import { waitFor } from './wait-for';

export const browserTools: readonly BrowserTool[] = [
  snapshot,
  find,
  getText,
  readDom,
  screenshot,
  tabs,
  downloads,
  waitFor,
  scroll,
  hover,
  click,
  type,
  fillForm,
  selectOption,
  pressKey,
  uploadFile,
  drag,
  navigate,
  history,
  reload,
  newTab,
  switchTab,
  closeTab,
];
