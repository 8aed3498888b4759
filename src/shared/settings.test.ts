import { describe, expect, it } from 'vitest';
import { defaultSettings, loadSettings, SETTINGS_VERSION } from './settings';

describe('loadSettings', () => {
  it('gives defaults for nothing stored: read-only, no sites', () => {
    const { settings, problem } = loadSettings(undefined);
    expect(problem).toBeUndefined();
    expect(settings.actMode).toBe(false);
    expect(settings.allowedSites).toEqual([]);
    expect(settings.confirmationTimeoutSec).toBe(120);
  });
  it('migrates the unversioned shape', () => {
    const { settings, migratedFrom } = loadSettings({
      actMode: true,
      agents: [{ id: 'a', name: 'A', url: 'ws://x/acp' }],
    });
    expect(migratedFrom).toBe(0);
    expect(settings.version).toBe(SETTINGS_VERSION);
    expect(settings.actMode).toBe(true);
    expect(settings.agents[0]).toMatchObject({ serverName: 'tabwright', dialect: 'both', browserAccess: true });
  });
  it('migrates version 1 to an untouched blocklist, keeping everything else', () => {
    const { settings, migratedFrom } = loadSettings({
      version: 1,
      actMode: true,
      allowedSites: ['https://example.com'],
      confirmationTimeoutSec: 30,
    });
    expect(migratedFrom).toBe(1);
    expect(settings).toMatchObject({
      version: SETTINGS_VERSION,
      actMode: true,
      allowedSites: ['https://example.com'],
      confirmationTimeoutSec: 30,
      blocklist: { removed: [], custom: [] },
    });
  });
  it('migrates version 2 to connectors that are all off, keeping everything else', () => {
    const { settings, migratedFrom } = loadSettings({
      version: 2,
      actMode: true,
      allowedSites: ['https://example.com'],
      blocklist: { removed: ['x'], custom: [] },
    });
    expect(migratedFrom).toBe(2);
    expect(settings).toMatchObject({
      version: SETTINGS_VERSION,
      actMode: true,
      allowedSites: ['https://example.com'],
      blocklist: { removed: ['x'], custom: [] },
      connectors: {},
      connectorHealthMinutes: 10,
    });
  });
  it('migrates version 3 to groups and outlines on and download reports off, keeping everything else', () => {
    const { settings, migratedFrom } = loadSettings({
      version: 3,
      actMode: true,
      screenshots: true,
      connectors: { fossil: { enabled: true, sites: ['http://127.0.0.1:8080'] } },
    });
    expect(migratedFrom).toBe(3);
    expect(settings).toMatchObject({
      version: SETTINGS_VERSION,
      actMode: true,
      screenshots: true,
      connectors: { fossil: { enabled: true, sites: ['http://127.0.0.1:8080'] } },
      reportDownloads: false,
      agentTabGroups: true,
      agentOutline: true,
    });
    expect(settings.downloadsSince).toBeUndefined();
  });
  it('migrates version 4 to agents that keep following the tab in front, and new agents that do not', () => {
    const agent = { id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:8765/acp' };
    const { settings, migratedFrom } = loadSettings({ version: 4, actMode: true, agents: [agent] });
    expect(migratedFrom).toBe(4);
    expect(settings.agents).toEqual([expect.objectContaining({ ...agent, followCurrentTab: true })]);
    expect(settings.actMode).toBe(true);
    const fresh = loadSettings({ ...settings, agents: [{ id: 'a2', name: 'New', url: agent.url }] }).settings;
    expect(fresh.agents[0]!.followCurrentTab).toBe(false);
  });
  it('reports unreadable settings instead of hiding it', () => {
    expect(loadSettings({ version: 1, loopGuardCap: 'many' }).problem).toMatch(/could not be read/);
    expect(loadSettings({ version: 99 }).problem).toMatch(/newer Tabwright/);
  });
  it('round-trips', () => {
    const settings = { ...defaultSettings(), allowedSites: ['http://127.0.0.1:8080'] };
    expect(loadSettings(JSON.parse(JSON.stringify(settings))).settings).toEqual(settings);
  });
});
