/**
 * The task plans carried out by Tabwright: tools called from the broker's side of the real tunnel
 * (actions-rig), on pages opened as the active tab. A dialog that reaches the browser is recorded
 * and dismissed, so a task whose dialog Tabwright did not answer fails instead of hanging.
 */
import type { Page } from 'playwright-core';
import { textOf, type ActionRig } from './actions-rig';
import { openActiveTab } from './harness';
import { base64Of, type Adapter, type Handle, type Step, type ToolCall } from './tasks-plan';

/**
 * How a plan step maps onto Tabwright's tools (an element named by `ref`, or by `target: { role, name }`
 * when its line has no ref, as the tools document for a cell or list item a script makes clickable):
 * - the opening read → `snapshot {}`
 * - find → `find { text: name }` (the lines that match, with refs and a little context)
 * - click → `click { ref, dialog?, double? }`; the dialog answer goes with the action that opens it
 * - hover → `hover { ref }`
 * - type → `type { ref, text, submit? }`
 * - select_option → `select_option { ref, label }`
 * - press_key → `press_key { ref, key }` (focuses the element first)
 * - drag → `drag { ref, toRef }` (`toTarget` for a drop target without a ref)
 * - upload_file → `upload_file { ref, files: [{ name, mimeType, contentBase64 }] }`
 */
export function tabwrightCalls(step: Step, handle: Handle, toHandle?: Handle): ToolCall[] {
  const on = 'ref' in handle ? { ref: handle.ref } : { target: handle.target };
  const to = !toHandle ? {} : 'ref' in toHandle ? { toRef: toHandle.ref } : { toTarget: toHandle.target };
  switch (step.do) {
    case 'click':
      return [
        {
          tool: 'click',
          args: { ...on, ...(step.dialog ? { dialog: step.dialog } : {}), ...(step.double ? { double: true } : {}) },
        },
      ];
    case 'hover':
      return [{ tool: 'hover', args: { ...on } }];
    case 'type':
      return [{ tool: 'type', args: { ...on, text: step.text, ...(step.submit ? { submit: true } : {}) } }];
    case 'select_option':
      return [{ tool: 'select_option', args: { ...on, label: step.label } }];
    case 'press_key':
      return [{ tool: 'press_key', args: { ...on, key: step.key } }];
    case 'drag':
      return [{ tool: 'drag', args: { ...on, ...to } }];
    case 'upload_file':
      return [
        {
          tool: 'upload_file',
          args: {
            ...on,
            files: step.files.map((file) => ({
              name: file.name,
              mimeType: file.mimeType,
              contentBase64: base64Of(file),
            })),
          },
        },
      ];
  }
}

export function tabwrightAdapter(rig: ActionRig): Adapter {
  const dialogs = new WeakMap<Page, string[]>();
  return {
    label: 'Tabwright',
    async open(url) {
      const page = await openActiveTab(rig.launched, url);
      const seen: string[] = [];
      dialogs.set(page, seen);
      page.on('dialog', (dialog) => {
        seen.push(`${dialog.type()} "${dialog.message()}"`);
        void dialog.dismiss().catch(() => undefined);
      });
      return page;
    },
    async call({ tool, args }) {
      const result = await rig.call(tool, args);
      return { text: textOf(result), isError: result.isError === true };
    },
    read: () => ({ tool: 'snapshot', args: {} }),
    find: (target) => ({ tool: 'find', args: { text: target.name } }),
    actsByTarget: true,
    act: (step, refs) => tabwrightCalls(step, refs.on, refs.to),
    strayDialogs: (page) => dialogs.get(page) ?? [],
    close: (page) => page.close(),
  };
}
