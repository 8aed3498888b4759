/**
 * One snapshot line, both ways: the page agent renders elements with it and the panel reads lines
 * back with it (diffs, `find`, naming a target), so the shapes `- role "name" [e1] [states]`
 * and, for a run of text, `- "text"` are written down once (docs/snapshot-format.md). Names, values
 * and text arrive already neutralised: they hold no quote, bracket or newline, so page text can
 * neither start a line, nor close its quotes early, nor look like a role or a ref.
 */

import { REF_ID } from './refs';

export interface LineParts {
  depth: number;
  role: string;
  /** Omitted or empty: the line shows no name. */
  name?: string;
  ref?: string;
  /**
   * A drag source says so; a plain element clicked by script needs no word of its own, as its
   * ref already says it can be acted on (docs/snapshot-format.md).
   */
  draggable?: boolean;
  /** A contenteditable textbox's text (shown even when empty once given). */
  value?: string;
  /** Already rendered, each with its leading space: ` [checked] [expanded=false]`. */
  states?: string;
}

/** Longest name a line prints: a longer one is cut, ending in `…`. */
export const NAME_MAX = 500;

const INDENT_STEP = '  ';
const INDENTS: string[] = [];
export const indent = (depth: number): string => (INDENTS[depth] ??= INDENT_STEP.repeat(depth));

export function renderLine(parts: LineParts): string {
  let line = `${indent(parts.depth)}- ${parts.role}`;
  if (parts.name) line += ` "${parts.name}"`;
  if (parts.ref) line += ` ${refMark(parts.ref)}`;
  if (parts.draggable) line += ' [draggable]';
  if (parts.value !== undefined) line += ` [value="${parts.value}"]`;
  return line + (parts.states ?? '');
}

/** The role word `find` and diffs give a run of text; the line itself does not print it. */
export const TEXT_ROLE = 'text';

/**
 * A run of text: `- "…"`. An element line's role is a bare word, so the opening quote alone tells
 * text from element, and neutralised text cannot hold a quote. A snapshot never prints a ref on a
 * run of text; only a walk that looks up a target gives one to the run it names.
 */
export function renderTextLine(depth: number, text: string, ref?: string): string {
  return ref ? `${indent(depth)}- "${text}" ${refMark(ref)}` : `${indent(depth)}- "${text}"`;
}

const TEXT_LINE = /^\s*- "/;

export function isTextLine(line: string): boolean {
  return TEXT_LINE.test(line);
}

/** The text of a line renderTextLine made: neutralised text holds no quote, so it ends at the second. */
export function textOfLine(line: string): string {
  return line.slice(line.indexOf('"') + 1, line.lastIndexOf('"'));
}

/**
 * A ref prints as its id in brackets, `[e12]` or `[f3e12]` in a frame: no state is shaped like
 * that (states are words), and page text cannot hold a bracket, so the mark is the ref alone.
 */
export const refMark = (ref: string): string => `[${ref}]`;

const REF = new RegExp(`\\[(${REF_ID})\\]`);
const EVERY_REF = new RegExp(`\\[(${REF_ID})\\]`, 'g');
const REFS = new RegExp(`\\s\\[${REF_ID}\\]`, 'g');
const REF_MARK = new RegExp(`^\\[${REF_ID}\\]$`);
// A role word holds no colon: a table row printed on one line (snapshot-rows.ts) is `- row: …`.
const ROLE = /^\s*- ([^\s"[:]+)/;
const HEAD = /^- [^\s"[:]+(?: "[^"]*")?/;
const LABEL = new RegExp(`^\\s*- (.*?)\\s*\\[${REF_ID}\\]`);
const NAME = /^\s*- (?:[^\s"[:]+ )?"([^"]*)"/;

/** The line's first ref: a table row on one line has one per cell (refsOfLine). */
export function refOfLine(line: string): string | undefined {
  return REF.exec(line)?.[1];
}

/** Every ref the line shows, in order. */
export function refsOfLine(line: string): string[] {
  return Array.from(line.matchAll(EVERY_REF), (match) => match[1]!);
}

/** A ref as an agent may copy it off a line, `[e12]`, or in the older `ref=e12` shape: the id alone. */
export function refFromMark(text: string): string {
  return text
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^ref=/, '');
}

/** Whether one `[…]` mark of a line is its ref rather than a state. */
export function isRefMark(mark: string): boolean {
  return REF_MARK.test(mark);
}

/** The line without its ` [e…]` ref marks, for matching what it says. */
export function withoutRefs(line: string): string {
  return line.replace(REFS, '');
}

/** The ` [e…]` ref mark removed once, wherever it is. */
export function withoutRef(text: string): string {
  return text.replace(REF, '');
}

/** The name an element line prints, or the text of a run of text; '' for a line without one. */
export function nameOfLine(line: string): string {
  return NAME.exec(line)?.[1] ?? '';
}

export function roleOfLine(line: string): string {
  return ROLE.exec(line)?.[1] ?? (isTextLine(line) ? TEXT_ROLE : '');
}

/** The line one level shallower: a wrapper's only line takes the wrapper's place. */
export function outdented(line: string): string {
  return line.startsWith(INDENT_STEP) ? line.slice(INDENT_STEP.length) : line;
}

/** Nesting depth in spaces. */
export function indentOfLine(line: string): number {
  return line.length - line.trimStart().length;
}

/** `- role "name"` without ref or states: lines with the same head are the same kind of thing. */
export function headOfLine(line: string): string {
  const trimmed = line.trim();
  return HEAD.exec(trimmed)?.[0] ?? trimmed;
}

/** What a line with a ref says before it (`link "Second page"`), or undefined. */
export function labelOfLine(line: string): string | undefined {
  return LABEL.exec(line)?.[1] || undefined;
}

export function isCommentLine(line: string): boolean {
  return line.trimStart().startsWith('#');
}
