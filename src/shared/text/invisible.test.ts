import { describe, expect, it } from 'vitest';
import { hasInvisible, showInvisible, stripInvisible } from './invisible';

describe('invisible characters', () => {
  it('finds and strips format characters and blank letters', () => {
    expect(hasInvisible('plain text')).toBe(false);
    expect(hasInvisible('a\u200bb')).toBe(true);
    expect(stripInvisible('a\u200bb\u2060c\u00add\u202ee\u2066f\u{e0041}g\u3164h\ufeffi')).toBe('abcdefghi');
  });

  it('keeps the joiners of an emoji sequence and drops the others', () => {
    expect(stripInvisible('👩‍💻 and 👍🏽‍ok')).toBe('👩‍💻 and 👍🏽ok');
    expect(stripInvisible('a\u200d<')).toBe('a<');
  });

  it('shows each invisible character by its code point', () => {
    expect(showInvisible('invoice\u202efdp.exe')).toBe('invoice\u27e8U+202E\u27e9fdp.exe');
    expect(showInvisible('\u{e0041}')).toBe('\u27e8U+E0041\u27e9');
    expect(showInvisible('no tricks')).toBe('no tricks');
  });
});
