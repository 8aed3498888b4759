/**
 * Which sites offer their page-declared tools: the ones the user turned on, as long as they are
 * still allowed sites. Removing a site from the allowed list therefore withdraws its page tools
 * at once, and allowing it again does not bring them back until the user turns them on again.
 */
import type { Settings } from '../shared/settings';

export function offeredPageToolSites(settings: Pick<Settings, 'pageToolSites' | 'allowedSites'>): string[] {
  return settings.pageToolSites.filter((origin) => settings.allowedSites.includes(origin));
}

export function withPageTools(settings: Settings, origin: string, on: boolean): Settings {
  const rest = settings.pageToolSites.filter((site) => site !== origin);
  return { ...settings, pageToolSites: on ? [...rest, origin] : rest };
}
