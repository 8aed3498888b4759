import { defineManifest } from '@crxjs/vite-plugin';
import pkg from './package.json' with { type: 'json' };
import testKey from './test/extension-key.json' with { type: 'json' };

/** Origins the test build is granted up front, because automation cannot answer a permission prompt. */
export const TEST_HOST_PERMISSIONS = ['http://127.0.0.1/*', 'http://localhost/*'];

/**
 * Held up front by the test build only, for the same reason; the release build asks for them when
 * the user turns the matching setting on ("Report downloads").
 */
export const TEST_HELD_OPTIONAL_PERMISSIONS = ['downloads'];

const PERMISSIONS = [
  'sidePanel',
  'storage',
  'unlimitedStorage',
  'scripting',
  'tabs',
  'webNavigation',
  'tabGroups',
  'alarms',
];

const icons = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };

export function buildManifest(flavour: 'release' | 'test') {
  return defineManifest({
    manifest_version: 3,
    name: '__MSG_extName__',
    short_name: 'Tabwright',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    version: pkg.version,
    minimum_chrome_version: '116',
    icons,
    action: { default_title: '__MSG_actionTitle__', default_icon: icons },
    side_panel: { default_path: 'src/sidepanel/index.html' },
    // What an organisation may set by policy (docs/operators.md); Chrome drops values that do not fit.
    storage: { managed_schema: 'managed-schema.json' },
    background: { service_worker: 'src/background/worker.ts', type: 'module' },
    permissions: flavour === 'test' ? [...PERMISSIONS, ...TEST_HELD_OPTIONAL_PERMISSIONS] : PERMISSIONS,
    optional_permissions: ['downloads'],
    // Sites are granted one by one from Settings; <all_urls> only when screenshots are turned on.
    optional_host_permissions: ['http://*/*', 'https://*/*', '<all_urls>'],
    content_security_policy: {
      extension_pages: "script-src 'self'; object-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    },
    ...(flavour === 'test' ? { key: testKey.key, host_permissions: TEST_HOST_PERMISSIONS } : {}),
  });
}
