/**
 * Chrome answers `control.labels` by walking the control's whole tree the first time it is asked
 * for each control, so naming every control on a big page costs O(controls × elements): 20 s on a
 * 5,000-row table. dom-accessibility-api asks for `labels`; during a snapshot we answer it from one
 * pass over each tree's <label> elements instead. The getters are installed on the prototypes of
 * the extension's isolated world only (the page's own scripts never see them) and removed after.
 */

const LABELABLE = [
  'HTMLInputElement',
  'HTMLButtonElement',
  'HTMLSelectElement',
  'HTMLTextAreaElement',
  'HTMLMeterElement',
  'HTMLOutputElement',
  'HTMLProgressElement',
] as const;

export function withLabelIndex<T>(view: Window, work: () => T): T {
  const byRoot = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  const labelsOf = (control: Element): HTMLLabelElement[] => {
    const root = control.getRootNode();
    let byControl = byRoot.get(root);
    if (!byControl) {
      byControl = new Map();
      const labels = (root as ParentNode).querySelectorAll?.('label') ?? [];
      for (const label of labels as NodeListOf<HTMLLabelElement>) {
        const target = label.control;
        if (!target) continue;
        const list = byControl.get(target);
        if (list) list.push(label);
        else byControl.set(target, [label]);
      }
      byRoot.set(root, byControl);
    }
    return byControl.get(control) ?? [];
  };
  const restore: Array<() => void> = [];
  for (const name of LABELABLE) {
    const prototype = (view as unknown as Record<string, { prototype: object } | undefined>)[name]?.prototype;
    const original = prototype && Object.getOwnPropertyDescriptor(prototype, 'labels');
    if (!prototype || !original?.get) continue;
    Object.defineProperty(prototype, 'labels', {
      configurable: true,
      enumerable: original.enumerable,
      get(this: Element) {
        // A hidden input has no labels (null), as the original getter says.
        if (this.localName === 'input' && (this as HTMLInputElement).type === 'hidden') return null;
        return labelsOf(this);
      },
    });
    restore.push(() => Object.defineProperty(prototype, 'labels', original));
  }
  try {
    return work();
  } finally {
    for (const undo of restore) undo();
  }
}
