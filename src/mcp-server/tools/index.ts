/** Every browser tool, in the order `tools/list` shows them. */
import type { BrowserTool } from '../tool';
import { click } from './click';
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
  waitFor,
  click,
] as unknown as BrowserTool[];
