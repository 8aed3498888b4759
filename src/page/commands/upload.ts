import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import { describeElement } from '../actions/describe';
import { DragOver, regionBelowBody } from '../actions/drag-drop';
import { checkTakes, chooseFiles, fileInputFor, filesOf, listFiles, transferOf } from '../actions/file-choice';
import { probeFileControl } from '../actions/file-picker-probe';
import { actionable, runAction } from '../actions/run-action';
import { nextBeat } from '../actions/timing';
import type { UploadCommand } from '../protocol';

/**
 * Puts files where the target takes them: into a file input (named directly or through its
 * label), onto a drop zone (an element that accepts a drag of files at its centre), or into the
 * file input a "Browse" control opens when clicked.
 */
export function runUpload(command: z.output<typeof UploadCommand>, env: PageEnv) {
  const ended = () => env.document.dispatchEvent(new Event(`${command.pickerEvent}-done`));
  const run = runAction(env, command, async (signal) => {
    const element = env.resolveTarget(command.target);
    const files = filesOf(command.files);
    const listed = listFiles(files);
    const name = describeElement(element);
    const input = fileInputFor(element);
    if (input) {
      checkTakes(input, files);
      chooseFiles(input, files);
      const through = input === element ? '' : ` (through ${name})`;
      return `Chose ${listed} in ${describeElement(input)}${through}`;
    }
    const point = await actionable(element, 'upload files to', { hitTest: true }, signal);
    // Files dragged in from outside the page: no dragstart here, only what the page under them sees.
    const over = new DragOver(env.document, transferOf(files), regionBelowBody(element));
    over.moveTo(point);
    await nextBeat(signal);
    over.moveTo(point);
    if (over.release(point)) return `Dropped ${listed} onto ${name}`;
    const probe = await probeFileControl(point.hit, point, command.pickerEvent, signal);
    if (probe.input) {
      checkTakes(probe.input, files);
      chooseFiles(probe.input, files);
      return `Chose ${listed} in ${describeElement(probe.input)}, the file input ${name} opens`;
    }
    if (probe.picker) {
      throw new PageError(
        `${name} opens the browser's own file picker (showOpenFilePicker), which no page event can fill, so ` +
          'nothing was chosen. Look for a file input or a drop zone on the page, or ask the user to pick the file.',
        'file-picker',
      );
    }
    throw new PageError(
      `${name} is not a file input, a label of one or a drop zone, and clicking it opened no file input, so ` +
        'nothing was chosen (the click itself went through). Pick the file input or the drop zone from a snapshot.',
      'wrong-kind',
    );
  });
  // The watch on the page's picker ends with the command, however it ends.
  return run.finally(ended);
}
