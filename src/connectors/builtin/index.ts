/** The connectors bundled with Tabwright, one file each, listed once here. */
import type { Connector } from '../sdk';
import dokuwiki from './dokuwiki';
import fossil from './fossil';
import mantisbt from './mantisbt';
import redmine from './redmine';

export const builtinConnectors: readonly Connector[] = [fossil, redmine, dokuwiki, mantisbt];
