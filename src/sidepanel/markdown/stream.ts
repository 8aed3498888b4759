/**
 * Live markdown for a streaming reply without re-rendering the whole message per chunk.
 *
 * The text is split into top-level blocks by markdown-it. A block is final once the next block has
 * started on a complete line: nothing appended later can change how it parses (the one exception,
 * a link reference defined after its use, is repaired by one full render when the reply ends).
 * Final blocks are rendered once and left alone; each flush parses only the text after them and
 * re-renders only the blocks whose source changed, usually just the last one. A code fence that is
 * still open grows by appending text, and is highlighted once it closes.
 */
import type { Token } from 'markdown-it';
import { md, plainCodeBlock, renderTokens, type MarkdownEnv } from './engine';

interface Block {
  startLine: number;
  endLine: number;
  from: number;
  to: number;
}

interface RenderedBlock {
  source: string;
  nodes: ChildNode[];
  /** Set while the block is a fence that has not closed yet. */
  open?: { info: string; content: string; code: HTMLElement };
}

/** Top-level blocks of a token stream, as token index ranges with their source lines. */
export function topLevelBlocks(tokens: Token[]): Block[] {
  const blocks: Block[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.level !== 0 || token.nesting === -1 || !token.map) continue;
    let end = index;
    if (token.nesting === 1) {
      let depth = 0;
      for (; end < tokens.length; end++) {
        depth += tokens[end]!.nesting;
        if (depth === 0) break;
      }
    }
    blocks.push({ startLine: token.map[0], endLine: token.map[1], from: index, to: end + 1 });
    index = end;
  }
  return blocks;
}

/** Offsets where each line starts; one more entry than there are complete lines. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?\n$/;

function fenceIsOpen(token: Token, lines: number[], text: string): boolean {
  const [start, end] = token.map!;
  if (end - start < 2) return true;
  const last = text.slice(lines[end - 1], lines[end] ?? text.length);
  const marker = CLOSING_FENCE.exec(last)?.[1];
  return !marker || marker[0] !== token.markup[0] || marker.length < token.markup.length;
}

export class StreamingMarkdown {
  readonly element: HTMLElement;
  #text = '';
  /** Everything before this offset is final and rendered. */
  #stable = 0;
  #tail: RenderedBlock[] = [];
  /** Link reference definitions from the final part of the text. */
  #references: NonNullable<MarkdownEnv['references']> = {};
  #renderedLength = 0;
  #final = false;

  constructor(className = 'markdown') {
    this.element = document.createElement('div');
    this.element.className = className;
  }

  get text(): string {
    return this.#text;
  }

  /** Whether there is text the DOM does not show yet. */
  get dirty(): boolean {
    return this.#renderedLength !== this.#text.length;
  }

  append(delta: string): void {
    this.#text += delta;
  }

  /** Replaces the whole text (a restored message) and renders it as final. */
  reset(text: string): void {
    this.#restart();
    this.#text = text;
    this.flush(true);
  }

  /** Renders what arrived since the last flush; `final` once no more text will come. */
  flush(final = false): void {
    try {
      this.#flush(final);
    } catch (error) {
      // Never lose the reply to a rendering fault: show it as plain text instead.
      console.error('Tabwright: markdown rendering failed; showing plain text', error);
      this.#restart();
      const plain = document.createElement('p');
      plain.className = 'plain-text';
      plain.textContent = this.#text;
      this.element.append(plain);
      this.#renderedLength = this.#text.length;
      this.#final = true;
    }
  }

  #flush(final: boolean): void {
    if (this.#final) {
      if (!this.dirty) return;
      this.#restart();
    }
    if (!final && !this.dirty) return;
    const source = this.#text.slice(this.#stable);
    const env: MarkdownEnv = { references: { ...this.#references } };
    const tokens = md.parse(source, env);
    if (final && Object.keys(env.references ?? {}).length > 0 && this.#renderedLength > 0) {
      // A reference may be used above its definition, and blocks rendered before the definition
      // arrived would be kept: only a whole-text render gets that right.
      this.#restart();
      return this.#flush(true);
    }
    const lines = lineStarts(source);
    const blocks = topLevelBlocks(tokens);
    this.#render(tokens, blocks, lines, source, final);
    this.#renderedLength = this.#text.length;
    this.#final = final;
    if (!final) this.#settle(blocks, lines, source);
  }

  #render(tokens: Token[], blocks: Block[], lines: number[], source: string, final: boolean): void {
    const sourceOf = (block: Block) => source.slice(lines[block.startLine], lines[block.endLine] ?? source.length);
    const next: RenderedBlock[] = [];
    let index = 0;
    for (; index < blocks.length; index++) {
      const previous = this.#tail[index];
      if (!previous || previous.open || previous.source !== sourceOf(blocks[index]!)) break;
      next.push(previous);
    }
    const firstChanged = index;
    let kept: RenderedBlock | undefined;
    for (; index < blocks.length; index++) {
      const block = blocks[index]!;
      const text = sourceOf(block);
      const first = tokens[block.from]!;
      if (!final && index === blocks.length - 1 && first.type === 'fence' && fenceIsOpen(first, lines, source)) {
        const previous = this.#tail[index];
        const open = previous?.open;
        if (
          previous &&
          open &&
          index === firstChanged &&
          open.info === first.info &&
          first.content.startsWith(open.content)
        ) {
          // A growing fence keeps its element and gains only the new text.
          open.code.append(first.content.slice(open.content.length));
          kept = { source: text, nodes: previous.nodes, open: { ...open, content: first.content } };
          next.push(kept);
        } else {
          const { block: element, code } = plainCodeBlock(first.info, first.content);
          next.push({ source: text, nodes: [element], open: { info: first.info, content: first.content, code } });
        }
        continue;
      }
      const fragment = renderTokens(tokens.slice(block.from, block.to), { references: this.#references });
      next.push({ source: text, nodes: [...fragment.childNodes] });
    }
    for (const stale of this.#tail.slice(firstChanged)) {
      if (kept && stale.nodes === kept.nodes) continue;
      for (const node of stale.nodes) node.remove();
    }
    for (const block of next.slice(firstChanged)) {
      if (kept && block === kept) continue;
      this.element.append(...block.nodes);
    }
    this.#tail = next;
  }

  /** Moves the start of the re-parsed text past blocks that can no longer change. */
  #settle(blocks: Block[], lines: number[], source: string): void {
    let settled = 0;
    for (let index = blocks.length - 1; index > 0; index--) {
      if (lines[blocks[index]!.startLine + 1] !== undefined) {
        settled = index;
        break;
      }
    }
    if (settled === 0) return;
    const advance = lines[blocks[settled]!.startLine]!;
    const finished = source.slice(0, advance);
    if (finished.includes(']:')) {
      const env: MarkdownEnv = {};
      md.parse(finished, env);
      for (const [label, target] of Object.entries(env.references ?? {})) {
        if (!(label in this.#references)) this.#references[label] = target;
      }
    }
    this.#stable += advance;
    this.#tail = this.#tail.slice(settled);
  }

  #restart(): void {
    this.element.replaceChildren();
    this.#stable = 0;
    this.#tail = [];
    this.#references = {};
    this.#renderedLength = 0;
    this.#final = false;
  }
}
