/**
 * The browser tools' listings with bare names: what src/contract/tool-manifest.json holds for the
 * broker. Derived from the same registry the panel serves, so the two cannot drift apart.
 */
import type { ToolManifest } from '../contract/tool-manifest';
import { ToolRegistry } from './registry';
import { browserTools } from './tools/index';

export function browserToolManifest(): ToolManifest {
  const prefix = 'manifest.';
  const tools = new ToolRegistry('manifest', browserTools)
    .list()
    .map((listing) => ({ ...listing, name: listing.name.slice(prefix.length) }));
  return { tools };
}
