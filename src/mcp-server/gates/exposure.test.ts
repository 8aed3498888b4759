import { describe, expect, it } from 'vitest';
import { exposureOf, isOffered, MAX_DECLARED_SERVERS } from './exposure';

const servers = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}`);

describe('exposure', () => {
  it('offers nothing without browser access', () => {
    expect(exposureOf({ browserAccess: false, hiddenServers: [] }, ['tabwright', 'fossil'])).toEqual({
      declared: [],
      hidden: ['tabwright', 'fossil'],
      overLimit: [],
    });
    expect(isOffered({ browserAccess: false, hiddenServers: [] }, 'tabwright', ['tabwright'])).toBe(false);
  });

  it('leaves out hidden servers', () => {
    const profile = { browserAccess: true, hiddenServers: ['fossil'] };
    expect(exposureOf(profile, ['tabwright', 'fossil', 'redmine'])).toEqual({
      declared: ['tabwright', 'redmine'],
      hidden: ['fossil'],
      overLimit: [],
    });
    expect(isOffered(profile, 'fossil', ['tabwright', 'fossil'])).toBe(false);
  });

  it(`declares at most ${MAX_DECLARED_SERVERS} servers and says which were left out`, () => {
    const exposure = exposureOf({ browserAccess: true, hiddenServers: ['s2'] }, servers(11));
    expect(exposure.declared).toHaveLength(MAX_DECLARED_SERVERS);
    expect(exposure.declared).not.toContain('s2');
    expect(exposure.overLimit).toEqual(['s10', 's11']);
    expect(isOffered({ browserAccess: true, hiddenServers: ['s2'] }, 's11', servers(11))).toBe(false);
    expect(isOffered({ browserAccess: true, hiddenServers: ['s2'] }, 's9', servers(11))).toBe(true);
  });
});
