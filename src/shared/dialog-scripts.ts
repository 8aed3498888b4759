/**
 * Which pages get the content scripts — the main-world script (src/page/main-world/: dialog hook and
 * request signals) and the dialog relay (src/page/dialogs/): the allowed sites Chrome has granted,
 * nothing else. A site the user removes, or whose grant Chrome drops, loses them with
 * the next registration.
 */

export const DIALOG_HOOK_ID = 'tabwright-dialog-hook';
export const DIALOG_RELAY_ID = 'tabwright-dialog-relay';
export const DIALOG_SCRIPT_IDS = [DIALOG_HOOK_ID, DIALOG_RELAY_ID];

/** The shape `chrome.scripting.registerContentScripts` takes, spelled out so this stays free of `chrome`. */
export interface DialogScript {
  id: string;
  js: string[];
  matches: string[];
  world: 'MAIN' | 'ISOLATED';
  runAt: 'document_start';
  allFrames: true;
  matchOriginAsFallback: true;
  persistAcrossSessions: true;
}

/** The match pattern of an allowed site (an origin such as `https://example.com:8443`). */
export function sitePattern(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.origin}/*`;
}

/** The patterns of the allowed sites Chrome has granted, deduplicated and sorted. */
export async function dialogScriptMatches(
  allowedSites: readonly string[],
  granted: (pattern: string) => Promise<boolean>,
): Promise<string[]> {
  const patterns = [...new Set(allowedSites.map(sitePattern).filter((p): p is string => p !== undefined))];
  const held = await Promise.all(patterns.map((pattern) => granted(pattern).catch(() => false)));
  return patterns.filter((_, i) => held[i]).sort();
}

/** The two scripts for `matches`; none when no site qualifies (Chrome refuses empty matches). */
export function dialogScripts(matches: readonly string[]): DialogScript[] {
  if (!matches.length) return [];
  const common = {
    runAt: 'document_start',
    allFrames: true,
    matchOriginAsFallback: true,
    persistAcrossSessions: true,
  } as const;
  return [
    { id: DIALOG_HOOK_ID, js: ['page/main-world.js'], world: 'MAIN', matches: [...matches], ...common },
    { id: DIALOG_RELAY_ID, js: ['page/dialog-relay.js'], world: 'ISOLATED', matches: [...matches], ...common },
  ];
}

/** Whether what Chrome holds registered already is what should be. */
export function sameRegistration(
  registered: readonly { id: string; js?: string[] | undefined; matches?: string[] | undefined }[],
  wanted: readonly DialogScript[],
): boolean {
  const ours = registered.filter((script) => DIALOG_SCRIPT_IDS.includes(script.id));
  if (ours.length !== wanted.length) return false;
  return wanted.every((script) => {
    const found = ours.find((r) => r.id === script.id);
    // A registration kept from an older version may name a script file that is gone.
    if (!found || (found.js ?? []).join(' ') !== script.js.join(' ')) return false;
    return [...(found.matches ?? [])].sort().join(' ') === [...script.matches].sort().join(' ');
  });
}
