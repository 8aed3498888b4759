/**
 * What a "Browse" control does when clicked. Most call `click()` on a hidden file input; that click
 * is an event this world sees, so it is caught and cancelled (no picker opens) and the input is the
 * one to fill. Others call `window.showOpenFilePicker`, which lives in the page's own world, where
 * the panel has put a watch for the length of the command (see ../main-world/file-picker-watch.ts) that
 * reports such calls by the DOM event `pickerEvent`.
 */
import { clickAt } from './pointer';
import { nextBeat, yieldToPage } from './timing';

export interface ProbeResult {
  /** The file input the click opened, its picker cancelled. */
  input?: HTMLInputElement;
  /** The page asked for the browser's file picker (File System Access) instead. */
  picker: boolean;
}

/** Clicks at the point and reports which file input, or which picker, the page opened in answer. */
export async function probeFileControl(
  hit: Element,
  at: { x: number; y: number },
  pickerEvent: string,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const document = hit.ownerDocument;
  const view = document.defaultView!;
  const result: ProbeResult = { picker: false };
  const onClick = (event: Event) => {
    const first = event.composedPath()[0];
    if (!(first instanceof HTMLInputElement) || first.type !== 'file') return;
    event.preventDefault();
    result.input ??= first;
  };
  const onPicker = () => (result.picker = true);
  view.addEventListener('click', onClick, true);
  document.addEventListener(pickerEvent, onPicker);
  try {
    clickAt(hit, at.x, at.y, 'left', false);
    // Handlers that open the input a moment later (a framework's scheduled update) still count.
    await yieldToPage(signal);
    await nextBeat(signal);
  } finally {
    view.removeEventListener('click', onClick, true);
    document.removeEventListener(pickerEvent, onPicker);
  }
  return result;
}
