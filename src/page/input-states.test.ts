// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RefRegistry } from './refs';
import { walkSnapshot } from './snapshot';

function snap(html: string): string[] {
  document.body.innerHTML = html;
  return walkSnapshot(document.body, { refs: new RefRegistry(''), pseudoElements: false }).lines;
}

describe('inputs in a snapshot', () => {
  it('gives every input type a role, its label as name, its value, format and bounds', () => {
    const lines = snap(`
      <label>Birthday <input type="date" min="2024-01-01" max="2024-12-31" value="2024-05-31"></label>
      <label>Alarm <input type="time"></label>
      <label>Meeting <input type="datetime-local"></label>
      <label>Month <input type="month"></label>
      <label>Week <input type="week"></label>
      <label>Colour <input type="color" value="#336699"></label>
      <label>Volume <input type="range" max="10" step="2" value="4"></label>
      <label>Guests <input type="number" min="1" value="2"></label>
      <label>Find <input type="search"></label>
      <label>Files <input type="file"></label>`);
    expect(lines).toEqual([
      '- textbox "Birthday" [e1] [value="2024-05-31"] [format=YYYY-MM-DD] [min=2024-01-01] [max=2024-12-31]',
      '- textbox "Alarm" [e2] [format=HH:MM or HH:MM:SS]',
      '- textbox "Meeting" [e3] [format=YYYY-MM-DDTHH:MM]',
      '- textbox "Month" [e4] [format=YYYY-MM]',
      '- textbox "Week" [e5] [format=YYYY-Www]',
      '- button "Colour" [e6] [value="#336699"] [format=#rrggbb]',
      '- slider "Volume" [e7] [value="4"] [min=0] [max=10] [step=2]',
      '- spinbutton "Guests" [e8] [value="2"] [min=1]',
      '- searchbox "Find" [e9]',
      '- button "Files" [e10]',
    ]);
    // A mark holds no bracket of its own, so lines split into marks the one way.
    for (const line of lines) expect(line).not.toMatch(/\[[^\]]*\[/);
  });

  it('lists the chosen files with their sizes, never a path', () => {
    document.body.innerHTML = '<label>Files <input type="file" multiple></label>';
    const input = document.querySelector('input')!;
    const files = [new File(['x'.repeat(12)], 'notes.txt'), new File([new Uint8Array(2_500_000)], 'clip.mp4')];
    Object.defineProperty(input, 'files', { value: files });
    const lines = walkSnapshot(document.body, { refs: new RefRegistry(''), pseudoElements: false }).lines;
    expect(lines).toEqual(['- button "Files" [e1] [value="notes.txt (12 B), clip.mp4 (2.5 MB)"] [multiple]']);
  });

  it('shows an input its label draws, even when the input itself is not rendered', () => {
    const lines = snap(`
      <input id="notify" type="checkbox" hidden><label for="notify">Notify me</label>
      <input id="secret" type="text" hidden><label for="secret">Not a control</label>`);
    expect(lines).toEqual(['- checkbox "Notify me" [e1]', '- "Not a control"']);
  });
});
