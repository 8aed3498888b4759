/**
 * What a "Browse" control does when clicked. Most call `click()` on a hidden file input; that click
 * is an event this world sees, so it is caught and cancelled (no picker opens) and the input is the
 * one to fill. Others call `window.showOpenFilePicker`, which lives in the page's own world: for the
 * click, a small page script reports calls to it by a DOM event and is then taken out again. A page
 * whose content security policy forbids inline scripts hides those calls; it then reads as a
 * control that opened no file input.
 */
import { clickAt } from './pointer';
import { nextFrame, yieldToPage } from './timing';

export interface ProbeResult {
  /** The file input the click opened, its picker cancelled. */
  input?: HTMLInputElement;
  /** The page asked for the browser's file picker (File System Access) instead. */
  picker: boolean;
}

function randomName(): string {
  return `tabwright-picker-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16)).join('')}`;
}

/** Reports the page's calls to showOpenFilePicker as `called` events until `done` is fired on the document. */
function pickerWatchSource(called: string, done: string): string {
  const [c, d] = [JSON.stringify(called), JSON.stringify(done)];
  return (
    `(() => { const w = window, original = w.showOpenFilePicker; if (typeof original !== 'function') return;` +
    ` const watched = function (...args) { document.dispatchEvent(new Event(${c})); return original.apply(this, args); };` +
    ` w.showOpenFilePicker = watched;` +
    ` document.addEventListener(${d}, () => { if (w.showOpenFilePicker === watched) w.showOpenFilePicker = original; }, { once: true }); })();`
  );
}

function runPageScript(document: Document, source: string): void {
  try {
    const script = document.createElement('script');
    script.textContent = source;
    (document.head ?? document.documentElement).append(script);
    script.remove();
  } catch {
    // A page that forbids it (Trusted Types): its picker calls go unseen.
  }
}

/** Clicks at the point and reports which file input, or which picker, the page opened in answer. */
export async function probeFileControl(hit: Element, x: number, y: number, signal: AbortSignal): Promise<ProbeResult> {
  const document = hit.ownerDocument;
  const view = document.defaultView!;
  const result: ProbeResult = { picker: false };
  const onClick = (event: Event) => {
    const first = event.composedPath()[0];
    if (!(first instanceof HTMLInputElement) || first.type !== 'file') return;
    event.preventDefault();
    result.input ??= first;
  };
  const called = randomName();
  const done = `${called}-done`;
  const onPicker = () => (result.picker = true);
  view.addEventListener('click', onClick, true);
  document.addEventListener(called, onPicker);
  if ('showOpenFilePicker' in view) runPageScript(document, pickerWatchSource(called, done));
  try {
    clickAt(hit, x, y, 'left', false);
    // Handlers that open the input a moment later (a framework's scheduled update) still count.
    await yieldToPage(signal);
    await nextFrame(view, signal);
  } finally {
    view.removeEventListener('click', onClick, true);
    document.removeEventListener(called, onPicker);
    document.dispatchEvent(new Event(done));
  }
  return result;
}
