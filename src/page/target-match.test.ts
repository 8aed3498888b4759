import { describe, expect, it } from 'vitest';
import { lineMatches, matchingRef, targetMatch } from './target-match';
import { nameOfLine, textOfLine } from './snapshot-line';

describe('matching a target to a snapshot line', () => {
  it('reads the printed name of element lines and runs of text, with or without a ref', () => {
    expect(nameOfLine('  - button "Save" [e4] [disabled]')).toBe('Save');
    expect(nameOfLine('- region "Done"')).toBe('Done');
    expect(nameOfLine('    - "Next" [f3e9]')).toBe('Next');
    expect(textOfLine('    - "Next" [f3e9]')).toBe('Next');
    // A value is not a name.
    expect(nameOfLine('- textbox [e3] [value="shoes"]')).toBe('');
    expect(nameOfLine('# (frame content not available)')).toBe('');
  });

  it('matches the role as printed and the whole name, neutralised as the page neutralises names', () => {
    const save = targetMatch({ role: 'Button', name: 'Save' });
    expect(lineMatches('- button "Save" [e1]', save)).toBe(true);
    expect(lineMatches('- button "Save all" [e2]', save)).toBe(false);
    expect(lineMatches('- link "Save" [e3]', save)).toBe(false);
    const quoted = targetMatch({ name: 'Say "hi"\n  [now]' });
    expect(lineMatches('- button "Say ”hi” ⟦now⟧" [e1]', quoted)).toBe(true);
    expect(lineMatches('- "Say ”hi” ⟦now⟧"', quoted)).toBe(true);
  });

  it('names a run of text by role "text", and any line by its name alone when no role is given', () => {
    expect(lineMatches('  - "Next" [e5]', targetMatch({ role: 'text', name: 'Next' }))).toBe(true);
    expect(lineMatches('  - button "Next" [e6]', targetMatch({ role: 'text', name: 'Next' }))).toBe(false);
    expect(lineMatches('  - button "Next" [e6]', targetMatch({ name: 'Next' }))).toBe(true);
  });

  it('matches a name the page cut short, whether given whole or as printed', () => {
    const long = 'x'.repeat(600);
    const line = `- heading "${'x'.repeat(499)}…" [e1]`;
    expect(lineMatches(line, targetMatch({ name: long }))).toBe(true);
    expect(lineMatches(line, targetMatch({ name: `${'x'.repeat(499)}…` }))).toBe(true);
  });

  it('gives the ref only of a line that matches and has one', () => {
    const done = targetMatch({ role: 'region', name: 'Done' });
    expect(matchingRef('- region "Done" [f2e7]', done)).toBe('f2e7');
    expect(matchingRef('- region "Done"', done)).toBeUndefined();
    expect(matchingRef('- region "To do" [e1]', done)).toBeUndefined();
  });
});
