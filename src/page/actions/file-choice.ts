/**
 * Files as a person's choice looks to the page: `File` objects in the input's `files`, set through
 * a `DataTransfer` (the one way a page can be given a FileList), then the input and change events
 * the browser sends when its picker closes. Every check runs before anything is set.
 */
import { PageError } from '../env';
import { fileSize } from '../input-states';
import { clip, neutraliseText } from '../../shared/text/line';
import { describeElement } from './describe';

export interface FileSpec {
  name: string;
  mimeType: string;
  contentBase64: string;
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    throw new PageError('A file’s content is not valid base64, so nothing was chosen.', 'bad-value');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function filesOf(specs: readonly FileSpec[]): File[] {
  return specs.map((spec) => new File([bytesOf(spec.contentBase64)], spec.name, { type: spec.mimeType }));
}

/** "notes.txt (12 B), photo.png (2.0 kB)", for the action line. */
export function listFiles(files: readonly File[]): string {
  return files.map((file) => `${clip(neutraliseText(file.name), 80)} (${fileSize(file.size)})`).join(', ');
}

export function transferOf(files: readonly File[]): DataTransfer {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  return transfer;
}

const isFileInput = (element: Element | null | undefined): element is HTMLInputElement =>
  element instanceof HTMLInputElement && element.type === 'file';

/** The file input an element stands for: itself, or the input its label (or the label it is in) controls. */
export function fileInputFor(element: Element): HTMLInputElement | undefined {
  if (isFileInput(element)) return element;
  const label = element instanceof HTMLLabelElement ? element : element.closest('label');
  return isFileInput(label?.control) ? label.control : undefined;
}

/** Refuses what the input would not take from its own picker: a disabled input, several files into a single one. */
export function checkTakes(input: HTMLInputElement, files: readonly File[]): void {
  if (input.matches(':disabled')) {
    throw new PageError(`${describeElement(input)} is disabled, so nothing was chosen.`, 'not-actionable:enabled');
  }
  if (files.length > 1 && !input.multiple) {
    throw new PageError(
      `${describeElement(input)} takes one file (it has no \`multiple\`), and ${files.length} were given, so nothing ` +
        'was chosen. Upload one file.',
      'bad-value',
    );
  }
}

/** Sets the input's files and sends the events a closing picker sends: input (composed), then change. */
export function chooseFiles(input: HTMLInputElement, files: readonly File[]): void {
  input.files = transferOf(files).files;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}
