// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../shared/settings';
import { withPageTools } from '../../webmcp/page-tool-sites';
import { pageToolsSection } from './page-tools';

describe('pageToolsSection', () => {
  it('lists each allowed site off until the user turns it on, with the server it becomes', async () => {
    let settings: Settings = { ...defaultSettings(), allowedSites: ['https://a.example', 'http://127.0.0.1:8080'] };
    const saved: string[][] = [];
    const section = pageToolsSection({
      settings: () => settings,
      setOffered: async (origin, on) => {
        settings = withPageTools(settings, origin, on);
        saved.push(settings.pageToolSites);
      },
    });
    document.body.replaceChildren(section);
    const boxes = [...section.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes.map((box) => [box.labels?.[0]?.textContent, box.checked])).toEqual([
      ['Offer tools declared by https://a.example', false],
      ['Offer tools declared by http://127.0.0.1:8080', false],
    ]);
    expect(section.textContent).toContain('Agents see them as the server page.127-0-0-1-8080.');
    boxes[1]!.click();
    boxes[0]!.click();
    boxes[1]!.click();
    await Promise.resolve();
    expect(saved).toEqual([
      ['http://127.0.0.1:8080'],
      ['http://127.0.0.1:8080', 'https://a.example'],
      ['https://a.example'],
    ]);
  });

  it('shows every site off and locked when the organisation turns page tools off', () => {
    const settings: Settings = {
      ...defaultSettings(),
      allowedSites: ['https://a.example'],
      pageToolSites: ['https://a.example'],
    };
    const section = pageToolsSection({
      settings: () => settings,
      effective: () => ({ ...settings, pageToolSites: [] }),
      locked: () => true,
      setOffered: async () => undefined,
    });
    const box = section.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect([box.checked, box.disabled]).toEqual([false, true]);
    expect(section.querySelector('#page-tools-hint')!.textContent).toMatch(/^Set by your organisation\. /);
  });

  it('says so when no site is allowed', () => {
    const section = pageToolsSection({ settings: defaultSettings, setOffered: async () => undefined });
    expect(section.querySelectorAll('input')).toHaveLength(0);
    expect(section.querySelector('li.empty')).not.toBeNull();
  });
});
