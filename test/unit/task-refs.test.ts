import { describe, expect, it } from 'vitest';
import { printedLineFor, refFor } from '../e2e/tasks-plan';

// Lines as Playwright MCP 0.0.83 and Tabwright print them in their find answers.
const PLAYWRIGHT = `- generic [ref=e5]:
  - generic [ref=e12] [cursor=pointer]: File
  - listitem [ref=e20]: Deploy
  - link "14" [ref=e31] [cursor=pointer]
  - gridcell "SKU-2015" [ref=e40]
  - generic [ref=e41]: "14:00"
  - generic [ref=e42]: File menu`;

const TABWRIGHT = `- table
  - row
    - cell "Ashton Cox"
    - cell "London"
  - button "Next" [ref=e9]`;

describe('finding a target in a find answer', () => {
  it('takes the ref of a line whose name follows the colon', () => {
    expect(refFor(PLAYWRIGHT, { role: 'generic', name: 'File' })).toBe('e12');
    expect(refFor(PLAYWRIGHT, { role: ['generic', 'listitem'], name: 'Deploy' })).toBe('e20');
    expect(refFor(PLAYWRIGHT, { role: 'generic', name: '14:00' })).toBe('e41');
  });

  it('matches the whole name after the colon, or a prefix when the target asks for one', () => {
    expect(refFor(PLAYWRIGHT, { role: 'generic', name: 'File men' })).toBeUndefined();
    expect(refFor(PLAYWRIGHT, { role: 'generic', name: 'File men', prefix: true })).toBe('e42');
    expect(refFor(PLAYWRIGHT, { role: 'button', name: 'File' })).toBeUndefined();
  });

  it('still takes quoted names in either format', () => {
    expect(refFor(PLAYWRIGHT, { role: 'link', name: '14' })).toBe('e31');
    expect(refFor(PLAYWRIGHT, { role: 'gridcell', name: 'SKU-2015' })).toBe('e40');
    expect(refFor(TABWRIGHT, { role: 'button', name: 'Next' })).toBe('e9');
  });

  it('gives the printed role and name of a line without a ref', () => {
    expect(refFor(TABWRIGHT, { role: ['cell', 'row'], name: 'Ashton Cox' })).toBeUndefined();
    expect(printedLineFor(TABWRIGHT, { role: ['row', 'cell'], name: 'Ashton Cox' })).toEqual({
      role: 'cell',
      name: 'Ashton Cox',
    });
    expect(printedLineFor(TABWRIGHT, { role: 'button', name: 'Next' })).toBeUndefined();
  });
});
