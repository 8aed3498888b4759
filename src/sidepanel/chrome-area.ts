/** `chrome.storage` areas as the `StorageArea` the stores expect. */
import type { StorageArea } from '../shared/stores';

export function chromeArea(area: chrome.storage.StorageArea): StorageArea {
  return {
    get: (keys) => area.get(keys) as Promise<Record<string, unknown>>,
    set: (items) => area.set(items),
    remove: (keys) => area.remove(keys),
  };
}
