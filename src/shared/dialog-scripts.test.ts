import { describe, expect, it } from 'vitest';
import { dialogScriptMatches, dialogScripts, sameRegistration, sitePattern } from './dialog-scripts';

describe('the dialog scripts’ registration', () => {
  it('covers the allowed sites Chrome has granted, and nothing else', async () => {
    const granted = new Set(['https://app.example/*', 'http://127.0.0.1:5173/*']);
    const matches = await dialogScriptMatches(
      ['https://app.example', 'http://127.0.0.1:5173', 'https://not-granted.example', 'app.example', 'file:///x'],
      async (pattern) => granted.has(pattern),
    );
    expect(matches).toEqual(['http://127.0.0.1:5173/*', 'https://app.example/*']);
  });

  it('treats a failed permission check as not granted', async () => {
    expect(await dialogScriptMatches(['https://a.example'], () => Promise.reject(new Error('no')))).toEqual([]);
  });

  it('registers the main-world script and an isolated relay at document_start in every frame, about:blank too', () => {
    const scripts = dialogScripts(['https://app.example/*']);
    expect(scripts.map((s) => [s.id, s.world, s.js[0]])).toEqual([
      ['tabwright-dialog-hook', 'MAIN', 'page/main-world.js'],
      ['tabwright-dialog-relay', 'ISOLATED', 'page/dialog-relay.js'],
    ]);
    for (const script of scripts) {
      expect(script).toMatchObject({ runAt: 'document_start', allFrames: true, matchOriginAsFallback: true });
      expect(script.matches).toEqual(['https://app.example/*']);
    }
    expect(dialogScripts([])).toEqual([]);
  });

  it('knows when what is registered is already right', () => {
    const wanted = dialogScripts(['https://b.example/*', 'https://a.example/*']);
    const registered = wanted.map((s) => ({ id: s.id, js: s.js, matches: [...s.matches].reverse() }));
    expect(sameRegistration(registered, wanted)).toBe(true);
    expect(sameRegistration(registered.slice(0, 1), wanted)).toBe(false);
    expect(sameRegistration(registered, dialogScripts(['https://a.example/*']))).toBe(false);
    expect(sameRegistration([], [])).toBe(true);
    expect(sameRegistration(registered, [])).toBe(false);
    const older = registered.map((s, i) => (i === 0 ? { ...s, js: ['page/dialog-hook.js'] } : s));
    expect(sameRegistration(older, wanted)).toBe(false);
  });

  it('writes a site as its origin pattern, port included', () => {
    expect(sitePattern('http://localhost:8080')).toBe('http://localhost:8080/*');
    expect(sitePattern('chrome://settings')).toBeUndefined();
  });
});
