/** Every browser tool, in the order `tools/list` shows them. */
import type { BrowserTool } from '../tool';
import { click } from './click';
import { snapshot } from './snapshot';
import { tabs } from './tabs';

export const browserTools: readonly BrowserTool[] = [snapshot, tabs, click] as unknown as BrowserTool[];
