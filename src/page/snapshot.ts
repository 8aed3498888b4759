/**
 * The snapshot walker: one pass over the flat tree (open shadow roots and slots included), one
 * computed-style read per element, names from dom-accessibility-api computed only for lines that
 * are emitted. Text that a container's children already show is not repeated in its name.
 */
import { computeAccessibleName } from 'dom-accessibility-api';
import { closedDetailsSummary, commonFlatAncestor, flatChildren } from './flat-tree';
import { withLabelIndex } from './label-index';
import { isAgentOutline } from './outline';
import { clip, neutraliseText } from '../shared/text/line';
import { nameWithoutIconGlyphs, withoutIconGlyphs } from './icon-glyphs';
import { isShadowRoot, shadowTreesCanAddText, styleSheetsCanAddText } from './pseudo-content';
import type { ListenerQuery } from './listener-channel';
import type { RefRegistry } from './refs';
import { NAME_MAX, outdented, renderLine, renderTextLine, TEXT_ROLE, textOfLine } from './snapshot-line';
import { anyTargetMatch, type TargetMatch, type TargetQuery } from './target-match';
import { isSecretField, rememberPasswordField } from './secret-field';
import { idRefs } from './id-refs';
import {
  actionSignal,
  CONTENT_NAMED_ROLES,
  FLATTENED_ROLES,
  hasAuthorName,
  HOISTED_WRAPPERS,
  INTERACTIVE_ROLES,
  LEAF_TAGS,
  optionLines,
  SKIPPED_TAGS,
  snapshotRole,
  statesOf,
} from './roles';

/** Where a child frame's snapshot goes: after `line`, one level deeper. */
export interface FrameSlot {
  line: number;
  /** Chrome's id of the frame inside, when the handshake found it. */
  frameId?: number;
}

export interface WalkResult {
  lines: string[];
  frames: FrameSlot[];
  /** The iframe element behind each slot, in the same order. */
  frameElements: Element[];
}

export interface WalkOptions {
  refs: RefRegistry;
  /** The frame id announced from inside this frame element, if any. */
  frameInside?(frame: Element): number | undefined;
  /**
   * Whether CSS `content` of ::before/::after may count in names: found out from the style sheets
   * when omitted (the document's, and each shadow root's with those around it); jsdom cannot
   * compute it at all.
   */
  pseudoElements?: boolean;
  /**
   * Elements looked up by role and name: every line one of these names gets a ref, printed or not
   * by a snapshot (a region, a cell, a run of text), so it can be acted on like any other line.
   */
  targets?: readonly TargetQuery[];
  /**
   * Whether an element has click, mouse, pointer or key listeners of its own, as the main-world
   * record saw them (page/listener-channel.ts); omitted where the document has no record.
   */
  ownListeners?: ListenerQuery;
}

/** Controls whose name HTML-AAM takes from their label (buttons take theirs from their value). */
const LABEL_NAMED_TAGS = new Set(['select', 'textarea']);
const LABEL_NAMED_INPUTS = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'number',
  'password',
  'checkbox',
  'radio',
]);
const LABEL_DRAWN_TYPES = new Set(['checkbox', 'radio', 'file']);
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** Whether `control` names itself after `label` by `aria-labelledby` (Headless UI's `<Label>`). */
function isLabelledBy(control: Element, label: Element): boolean {
  return !!label.id && idRefs(control, 'aria-labelledby').includes(label.id);
}

/**
 * An element's accessible name as its snapshot line shows it. `pseudo` says whether CSS `content`
 * may count: in the document (as the style sheets allow) and in shadow trees.
 */
export function snapshotName(
  element: Element,
  styleOf: typeof window.getComputedStyle,
  pseudo: { inDocument: boolean; inShadowTrees: boolean },
): string {
  const name = computeAccessibleName(element, {
    // An input drawn by its label is not rendered itself; its name still comes from the label.
    hidden: styleOf(element).display === 'none',
    getComputedStyle: styleOf,
    computedStyleSupportsPseudoElements:
      pseudo.inDocument || (pseudo.inShadowTrees && element.getRootNode() !== element.ownerDocument),
  });
  return clip(neutraliseText(nameWithoutIconGlyphs(name, element)), NAME_MAX);
}

export function walkSnapshot(root: Element, options: WalkOptions): WalkResult {
  const view = root.ownerDocument.defaultView ?? window;
  const pseudo = options.pseudoElements ?? styleSheetsCanAddText(root.ownerDocument);
  const walker = new SnapshotWalker(view, options, pseudo);
  withLabelIndex(view, () => {
    walker.visit(root, 0, true, '', false);
    walker.flushText();
  });
  return { lines: walker.lines, frames: walker.frames, frameElements: walker.frameElements };
}

/** Made draggable by the page (`draggable="true"`), not by default as links and images are. */
function isDraggable(element: Element): boolean {
  return element.getAttribute('draggable') === 'true';
}

type Signal = NonNullable<ReturnType<typeof actionSignal>> | 'listener';

/**
 * How an element's line is made: `clickable` gives a plain element a ref and names it by its
 * content; `weak` gives a ref only when none is inside.
 */
interface EmitKind {
  clickable: boolean;
  weak?: Signal;
}
const PLAIN: EmitKind = { clickable: false };
const CLICKABLE: EmitKind = { clickable: true };
const HAND: EmitKind = { clickable: true, weak: 'cursor' };

class SnapshotWalker {
  readonly lines: string[] = [];
  readonly frames: FrameSlot[] = [];
  readonly frameElements: Element[] = [];
  readonly #styles = new Map<Element, CSSStyleDeclaration>();
  #elementLines = 0;
  #refLines = 0;
  /** Shown content the lines do not print as text: a label on a wrapper, an unlisted image. */
  #unprinted = 0;
  /** How many checkbox, radio or switch lines the walk is inside: such a control already stands for an input it hides. */
  #insideCheckable = 0;
  #text = '';
  #textDepth = 0;
  /** The first and last text node of the run being gathered, kept only while looking up targets. */
  #runFirst: Node | undefined;
  #runLast: Node | undefined;
  readonly #wanted: TargetMatch | undefined;

  constructor(
    private readonly view: Window,
    private readonly options: WalkOptions,
    private readonly pseudoInDocument: boolean,
  ) {
    this.#wanted = options.targets?.length ? anyTargetMatch(options.targets) : undefined;
  }

  /** Shared with the name computation, so no element's style is read twice. */
  readonly #styleOf = (element: Element, pseudo?: string | null): CSSStyleDeclaration => {
    if (pseudo) return this.view.getComputedStyle(element, pseudo);
    let style = this.#styles.get(element);
    if (!style) {
      style = this.view.getComputedStyle(element);
      this.#styles.set(element, style);
    }
    return style;
  };

  #name(element: Element): string {
    return snapshotName(element, this.#styleOf as typeof window.getComputedStyle, {
      inDocument: this.pseudoInDocument,
      inShadowTrees: this.#pseudoInShadowTree(element),
    });
  }

  readonly #shadowCanAddText = shadowTreesCanAddText();

  /** Whether CSS may add text to an element in a shadow tree (false for one in the document). */
  #pseudoInShadowTree(element: Element): boolean {
    const root = element.getRootNode();
    if (!isShadowRoot(root)) return false;
    if (this.options.pseudoElements !== undefined) return this.options.pseudoElements;
    return this.#shadowCanAddText(root);
  }

  #appendText(text: string, depth: number, node?: Node): void {
    if (this.#text && depth !== this.#textDepth) this.flushText();
    this.#text += text;
    this.#textDepth = depth;
    if (node && this.#wanted) {
      this.#runFirst ??= node;
      this.#runLast = node;
    }
  }

  flushText(): void {
    if (!this.#text) return;
    const text = neutraliseText(withoutIconGlyphs(this.#text));
    const first = this.#runFirst;
    const last = this.#runLast;
    this.#text = '';
    this.#runFirst = this.#runLast = undefined;
    if (!text) return;
    // A run of text a target names is acted on through the element that holds it.
    const holder = first && last && this.#wanted?.(TEXT_ROLE, text) ? commonFlatAncestor(first, last) : undefined;
    this.lines.push(renderTextLine(this.#textDepth, text, holder && this.options.refs.refFor(holder)));
  }

  #children(node: Element, depth: number, shown: boolean, cursor: string, quiet: boolean): void {
    const summary = closedDetailsSummary(node);
    if (summary !== null) {
      if (summary) this.visit(summary, depth, shown, cursor, quiet);
      return;
    }
    const children = flatChildren(node);
    if (children === node.childNodes) {
      // Sibling links are cheaper to follow than a live NodeList is to index.
      for (let child = node.firstChild; child; child = child.nextSibling)
        this.visit(child, depth, shown, cursor, quiet);
      return;
    }
    for (let i = 0; i < children.length; i++) this.visit(children[i]!, depth, shown, cursor, quiet);
  }

  visit(node: Node, depth: number, shown: boolean, parentCursor: string, quiet: boolean): void {
    if (node.nodeType === 3) {
      if (shown && !quiet) this.#appendText((node as Text).data, depth, node);
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.localName;
    // Hidden password fields too: a page may show one as text later.
    if (tag === 'input') rememberPasswordField(element);
    if (SKIPPED_TAGS.has(tag) || element.getAttribute('aria-hidden') === 'true' || isAgentOutline(element)) return;
    const style = this.#styleOf(element);
    const display = style.display;
    if (display === 'none') {
      // A web component that is itself the switch (Ionic's toggle) may keep a hidden input drawn by a
      // label inside: the component's line already is that control.
      if (tag === 'input' && !this.#insideCheckable && this.#drawnByLabel(element as HTMLInputElement)) {
        this.#emit(element, snapshotRole(element, tag, true)!, depth, true, '', quiet, PLAIN);
      }
      return;
    }
    const visible = style.visibility === 'visible';
    if (tag === 'br') {
      if (visible && !quiet) this.#appendText(' ', depth);
      return;
    }
    if (tag === 'iframe' || tag === 'frame') {
      if (visible) this.#frame(element, depth);
      return;
    }
    const cursor = style.cursor;
    const pointer = cursor === 'pointer';
    let role = snapshotRole(element, tag, visible);
    if (tag === 'label') quiet ||= this.#labelsVisibleControl(element as HTMLLabelElement);
    // A caption or legend is already the name of its table or fieldset: do not print it twice.
    if ((tag === 'caption' || tag === 'legend') && element.parentElement && !hasAuthorName(element.parentElement)) {
      quiet = true;
      role = null;
    }
    // Something the page made draggable can be acted on (drag) even without a role of its own.
    const grabbable = visible && isDraggable(element);
    const clickable =
      visible &&
      ((pointer && parentCursor !== 'pointer') || grabbable) &&
      (!role || FLATTENED_ROLES.has(role)) &&
      !LEAF_TAGS.has(tag);
    if (clickable && !(tag === 'label' && quiet)) {
      // A hand cursor over a control (a design system's field box around its combobox) is the
      // control's: the box gets a ref only when nothing inside has one. Dragging needs no control.
      this.#emit(element, 'generic', depth, true, cursor, quiet, grabbable ? CLICKABLE : HAND);
      return;
    }
    // Other signs that a person acts on it: these give a ref only when nothing inside has one.
    const signal =
      visible &&
      !(tag === 'label' && quiet) &&
      (!role || !INTERACTIVE_ROLES.has(role)) &&
      this.#signalOf(element, tag, role, cursor, parentCursor);
    if (signal) {
      const generic = !role || FLATTENED_ROLES.has(role);
      this.#emit(
        element,
        generic ? 'generic' : role!,
        depth,
        true,
        cursor,
        quiet,
        generic ? { clickable: true, weak: signal } : { clickable: false, weak: signal },
      );
      return;
    }
    if (!visible || !role || FLATTENED_ROLES.has(role)) {
      if (LEAF_TAGS.has(tag)) {
        // An unlisted image or svg may still lend its alt or title to a name.
        if (visible) this.#unprinted++;
        return;
      }
      if (hasAuthorName(element)) this.#unprinted++;
      // Inline wrappers continue the text around them; inline boxes are set apart by a space;
      // anything else that makes a box ends the text run.
      const inline = display === 'inline' || display === 'contents';
      const inlineBox = !inline && display.startsWith('inline-');
      if (inlineBox) this.#text += ' ';
      else if (!inline) this.flushText();
      this.#children(element, depth, visible, cursor, quiet);
      if (inlineBox) this.#text += ' ';
      else if (!inline) this.flushText();
      return;
    }
    this.#emit(element, role, depth, visible, cursor, quiet, PLAIN);
  }

  /** The weaker signs of something a person acts on, checked after the element's role. */
  #signalOf(element: Element, tag: string, role: string | null, cursor: string, parentCursor: string): Signal | false {
    const signal = actionSignal(element, tag, role, cursor, parentCursor);
    if (signal) return signal;
    const listeners = this.options.ownListeners;
    if (!listeners || tag === 'body' || tag === 'html' || LEAF_TAGS.has(tag)) return false;
    return listeners(element) ? 'listener' : false;
  }

  #labelsVisibleControl(label: HTMLLabelElement): boolean {
    const control = label.control;
    // A control named by its author from elsewhere does not take the label's text as its name.
    if (!control || (hasAuthorName(control) && !isLabelledBy(control, label))) return false;
    if (this.#styleOf(control).display !== 'none') return true;
    return control instanceof HTMLInputElement && this.#drawnByLabel(control);
  }

  /**
   * A custom checkbox, radio button or file button: the input is not rendered and a shown label
   * draws the control. Its line stays where the input is, named by the label, so it can be acted on.
   */
  #drawnByLabel(input: HTMLInputElement): boolean {
    if (!LABEL_DRAWN_TYPES.has(input.type) || !input.labels?.length) return false;
    for (const label of input.labels) {
      const style = this.#styleOf(label);
      if (style.display === 'none' || style.visibility !== 'visible') continue;
      if ((label as Element & { checkVisibility?(): boolean }).checkVisibility?.() !== false) return true;
    }
    return false;
  }

  #emit(
    element: Element,
    role: string,
    depth: number,
    shown: boolean,
    cursor: string,
    quiet: boolean,
    kind: EmitKind,
  ): void {
    this.flushText();
    const index = this.lines.length;
    this.lines.push('');
    const tag = element.localName;
    const draggable = shown && isDraggable(element);
    const { weak } = kind;
    let clickable = kind.clickable;
    let interactive = clickable || draggable || INTERACTIVE_ROLES.has(role) || !!weak;
    const beforeElements = ++this.#elementLines;
    const beforeRefs = interactive ? ++this.#refLines : this.#refLines;
    const beforeUnprinted = this.#unprinted;
    const checkable = interactive && CHECKABLE_ROLES.has(role);
    if (checkable) this.#insideCheckable++;
    if (tag === 'select') this.lines.push(...optionLines(element as HTMLSelectElement, depth + 1));
    else if (!LEAF_TAGS.has(tag) && role !== 'textbox') this.#children(element, depth + 1, shown, cursor, quiet);
    if (checkable) this.#insideCheckable--;
    this.flushText();
    const childLines = this.lines.length > index + 1;
    const childElements = this.#elementLines > beforeElements;
    const childRefs = this.#refLines > beforeRefs;
    // What is acted on is inside (a control in a grid cell, a list a script listens on for its items).
    if (weak && childRefs && weak !== 'focusable') {
      interactive = false;
      this.#refLines--;
      if (clickable) {
        this.#unwrap(index);
        return;
      }
      clickable = false;
    }
    const namedByContent =
      !(weak === 'focusable') && (clickable || !!weak || CONTENT_NAMED_ROLES.has(role)) && !hasAuthorName(element);
    let name = '';
    if (namedByContent) {
      if (childLines && !childElements) {
        name = this.#childText(index);
        this.lines.length = index + 1;
      } else if (!childLines) {
        name = this.#name(element);
        // Listeners alone on an empty, unnamed box (a resize handle): nothing a person would pick out.
        if (!name && weak === 'listener') {
          interactive = false;
          this.#refLines--;
        }
        if (!name && !interactive) {
          this.lines.length = index;
          this.#elementLines--;
          return;
        }
      }
    } else {
      name =
        childLines && !childElements && this.#unprinted === beforeUnprinted && this.#namedByItsText(element, role)
          ? clip(this.#childText(index), NAME_MAX)
          : (this.#labelText(element) ?? this.#name(element));
      // An interactive element's content is its name; keep children only when they can be acted on.
      if (interactive && childLines && !childRefs && tag !== 'select') this.lines.length = index + 1;
    }
    const states = statesOf(element, role);
    if (
      !name &&
      !states &&
      !interactive &&
      this.lines.length === index + 2 &&
      childElements &&
      HOISTED_WRAPPERS.has(role) &&
      this.frames.at(-1)?.line !== index + 1
    ) {
      this.lines[index] = outdented(this.lines[index + 1]!);
      this.lines.length = index + 1;
      this.#elementLines--;
      return;
    }
    let value: string | undefined;
    if (role === 'textbox' && tag !== 'input' && tag !== 'textarea' && !isSecretField(element)) {
      const text = element.textContent ?? '';
      if (text.trim()) value = clip(neutraliseText(text), 200);
    }
    // A line a target names gets a ref even where a snapshot prints none.
    const named = interactive || (this.#wanted?.(role, name) ?? false);
    this.lines[index] = renderLine({
      depth,
      role,
      name,
      ...(named ? { ref: this.options.refs.refFor(element) } : {}),
      draggable,
      ...(value !== undefined ? { value } : {}),
      states,
    });
  }

  /** Takes away the line at `index`, moving the lines inside it up one level into its place. */
  #unwrap(index: number): void {
    this.lines.splice(index, 1);
    for (let i = index; i < this.lines.length; i++) this.lines[i] = outdented(this.lines[i]!);
    for (const slot of this.frames) if (slot.line > index) slot.line--;
    this.#elementLines--;
  }

  /** The text runs printed after line `index`, as one name. */
  #childText(index: number): string {
    let text = '';
    for (let i = index + 1; i < this.lines.length; i++) text += (text ? ' ' : '') + textOfLine(this.lines[i]!);
    return text;
  }

  /**
   * A link or button named by its content whose content the walk has just printed as text only:
   * the accessible name is that text, so the name computation would walk the same nodes again.
   * Not when CSS may add text (::before/::after count in names), nor when a label names a button.
   */
  #namedByItsText(element: Element, role: string): boolean {
    if (role !== 'link' && role !== 'button') return false;
    const tag = element.localName;
    if (tag !== 'a' && tag !== 'button') return false;
    if (hasAuthorName(element)) return false;
    if (tag === 'button' && (element as HTMLButtonElement).labels.length) return false;
    return !this.pseudoInDocument && !this.#pseudoInShadowTree(element);
  }

  /**
   * A form control named by one shown label that holds only text (and perhaps the control itself):
   * its accessible name is that text, so the name computation need not walk the label again. Not
   * when the control is named by the author, nor when CSS may add text to the label.
   */
  #labelText(element: Element): string | undefined {
    const tag = element.localName;
    if (tag === 'input' ? !LABEL_NAMED_INPUTS.has((element as HTMLInputElement).type) : !LABEL_NAMED_TAGS.has(tag))
      return undefined;
    if (hasAuthorName(element)) return undefined;
    const labels = (element as HTMLInputElement).labels;
    if (labels?.length !== 1) return undefined;
    const label = labels[0]!;
    if (this.pseudoInDocument || this.#pseudoInShadowTree(label)) return undefined;
    const style = this.#styleOf(label);
    if (style.display === 'none' || style.visibility !== 'visible') return undefined;
    let text = '';
    for (let child = label.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) text += (child as Text).data;
      // The control inside its own label adds nothing but the space around its box.
      else if (child === element) text += ' ';
      else if (child.nodeType !== 8) return undefined;
    }
    // As the name computation flattens text: trimmed, runs of white space made one space.
    const flat = text.trim().replace(/\s\s+/g, ' ');
    return flat ? clip(neutraliseText(flat), NAME_MAX) : undefined;
  }

  #frame(element: Element, depth: number): void {
    this.flushText();
    const name = this.#name(element);
    this.frames.push({ line: this.lines.length, frameId: this.options.frameInside?.(element) });
    this.frameElements.push(element);
    this.lines.push(renderLine({ depth, role: 'iframe', name }));
    this.#elementLines++;
  }
}
