import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { decodedBytes, isBase64 } from '../file-content';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

/** Decoded bytes per call: with base64's growth, one call stays inside OpenAB's 1 MiB method frame. */
export const UPLOAD_CAP_BYTES = 700 * 1024;
/** The command to the page carries the same files; it stays under the same 1 MiB. */
const PAGE_MESSAGE_CAP_BYTES = 1024 * 1024;

const fileArg = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[/\\]/.test(name), 'is a path: give a file name without / or \\')
    .refine((name) => name !== '.' && name !== '..', 'is not a file name')
    .describe('File name as the page will see it, e.g. report.pdf (no folders)'),
  mimeType: z
    .string()
    .max(255)
    .optional()
    .describe('MIME type, e.g. application/pdf (default: none, as for an unknown file type)'),
  contentBase64: z
    .string()
    .refine(isBase64, 'is not valid base64 (standard alphabet, no spaces or line breaks)')
    .describe('The file’s bytes, base64-encoded'),
});

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export const uploadFile = defineTool({
  name: 'upload_file',
  title: 'Upload files',
  description:
    'Put files into a file input or onto a drop zone, as if the user had chosen them. Name a file input, its ' +
    'label or "Browse" button, or a drop zone; the page gets the events a real choice or drop sends. At most ' +
    '700 KiB of file data per call. Pages that use the browser’s own file picker (showOpenFilePicker) cannot be ' +
    `filled. Returns what was chosen and what changed on the page. ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  contentArgs: ['contentBase64'],
  input: z.object({
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
    files: z
      .array(fileArg)
      .min(1, 'give at least one file')
      .max(100)
      .superRefine((files, context) => {
        const total = files.reduce(
          (sum, file) => sum + (isBase64(file.contentBase64) ? decodedBytes(file.contentBase64) : 0),
          0,
        );
        if (total > UPLOAD_CAP_BYTES)
          context.addIssue({
            code: 'custom',
            message:
              `hold ${kib(total)} of file data, over the ${UPLOAD_CAP_BYTES / 1024} KiB cap per call (one call must ` +
              'fit the 1 MiB message limit); upload smaller files',
          });
      })
      .describe('The files: [{ name, mimeType?, contentBase64 }]; several only where the input takes several'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const at = elementTarget(args, 'file input or drop zone');
    if (typeof at === 'string') return void response.error(at);
    const files = args.files.map((file) => ({
      name: file.name,
      mimeType: file.mimeType ?? '',
      contentBase64: file.contentBase64,
    }));
    const pickerEvent = `tabwright-picker-${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
    const command = { op: 'upload' as const, target: at.target, files, pickerEvent };
    if (new TextEncoder().encode(JSON.stringify(command)).length > PAGE_MESSAGE_CAP_BYTES) {
      return void response.error(
        'The files and their names are over the 1 MiB message limit together. Nothing was chosen.',
      );
    }
    const names = files.map((file) => file.name).join(', ');
    await performAction(ctx, response, command, {
      frameId: at.frameId,
      fallbackLine: `Uploaded ${names} to ${targetLabel(ctx, args)}`,
    });
  },
});
