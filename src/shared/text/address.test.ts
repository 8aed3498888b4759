import { describe, expect, it } from 'vitest';
import { showAddress } from './address';

describe('showAddress', () => {
  it('shows a look-alike host in ASCII, its Unicode form beside it and marked as mixed', () => {
    const shown = showAddress('https://g\u043e\u043egle.com/signin');
    expect(shown).toEqual({
      href: 'https://xn--ggle-55da.com/signin',
      host: 'xn--ggle-55da.com',
      unicodeHost: 'g\u043e\u043egle.com',
      mixedScripts: true,
    });
  });

  it('gives a single-script internationalised host its Unicode form, unmarked', () => {
    const shown = showAddress('https://bücher.example:8443/a');
    expect(shown?.host).toBe('xn--bcher-kva.example:8443');
    expect(shown?.unicodeHost).toBe('bücher.example:8443');
    expect(shown?.mixedScripts).toBeUndefined();
  });

  it('leaves an ASCII host alone and refuses what is not an address', () => {
    expect(showAddress('https://example.com/x?y=1')).toEqual({
      href: 'https://example.com/x?y=1',
      host: 'example.com',
    });
    expect(showAddress('not a url')).toBeUndefined();
  });
});
