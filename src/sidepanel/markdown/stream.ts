/**
 * Live markdown for a streaming reply without re-rendering the whole message per chunk.
 *
 * The text is split into top-level blocks by markdown-it. A block is final once the next block has
 * started on a complete line: nothing appended later can change how it parses (the one exception,
 * a link reference defined after its use, is repaired by one full render when the reply ends).
 * Final blocks are rendered once and left alone; each flush parses only the text after them and
 * re-renders only the blocks whose source changed, usually just the last one. A code fence that is
 * still open grows by appending text; once closed, it is highlighted when near the view.
 *
 * Blocks are kept in chunks of a fixed count, which the stylesheet lets the browser skip while off
 * screen (`content-visibility`), so each frame lays out and paints what is visible, not the whole
 * reply. Chunks are cut by block count, so streaming and a single render give the same DOM.
 *
 * Text a flush could not reach is shown as it is below the formatted part (pending-text.ts), so
 * every character is on screen in the frame after it arrives, however far formatting lags.
 */
import type { Token } from 'markdown-it';
import { md, plainCodeBlock, renderBlocks, type MarkdownEnv } from './engine';
import { PendingText } from './pending-text';
import { renderPace } from './render-pace';

interface Block {
  startLine: number;
  endLine: number;
  from: number;
  to: number;
}

/** Blocks per chunk: enough that a long reply has few chunks to track, few enough to skip most. */
const BLOCKS_PER_CHUNK = 24;
/**
 * Script time a flush spends when the caller gives no budget. A burst of text is rendered over a
 * few flushes, as if it had arrived more slowly, so no frame is a long task; any prefix of a reply
 * renders exactly as it would have while streaming, so slicing changes nothing but timing. How
 * many characters fit is learned from the renders so far (code costs more than prose).
 */
const SLICE_MS = 4;

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
  /** Text whose blocks are final, and the text after it (the only part parsed again). */
  #settledText = '';
  #tailText = '';
  #settledBlocks = 0;
  #tail: RenderedBlock[] = [];
  #chunks: HTMLElement[] = [];
  /** Link reference definitions from the final part of the text. */
  #references: NonNullable<MarkdownEnv['references']> = {};
  #dirty = false;
  #rendered = false;
  #final = false;
  /** No more text will come: the next flushes finish the render. */
  #ended = false;
  /** How much of the tail the DOM shows: a slice renders that much again plus new text. */
  #shownChars = 0;
  readonly #pending = new PendingText();

  constructor(className = 'markdown') {
    this.element = document.createElement('div');
    this.element.className = className;
  }

  get text(): string {
    return this.#settledText + this.#tailText;
  }

  /** Whether there is rendering left to do: text not shown yet, or the final render. */
  get dirty(): boolean {
    return this.#dirty;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Marks the text complete; flushes from now on lead to the final render. */
  end(): void {
    this.#ended = true;
    if (!this.#final) this.#dirty = true;
  }

  append(delta: string): void {
    if (!delta) return;
    // Appending to the tail only: slicing one ever-growing string would copy all of it each frame.
    this.#tailText += delta;
    this.#dirty = true;
  }

  /** Replaces the whole text (a restored message) and renders it as final, at once. */
  reset(text: string): void {
    this.#restart('');
    this.#tailText = text;
    this.#dirty = true;
    this.flush(true);
  }

  /**
   * Renders one step: as much new text as fits in `budgetMs`, or, once the text has ended and what
   * is left fits, the final render. `final` renders everything at once.
   */
  flush(final = false, budgetMs = SLICE_MS): void {
    try {
      const limit = Math.max(renderPace.chars(budgetMs), this.#shownChars + renderPace.chars(0));
      if (final || (this.#ended && this.#tailText.length <= limit)) this.#flush(true);
      else this.#flush(false, limit);
      this.#showPending();
    } catch (error) {
      // Never lose the reply to a rendering fault: show it as plain text instead.
      console.error('Tabwright: markdown rendering failed; showing plain text', error);
      const text = this.text;
      this.#restart(text);
      const plain = document.createElement('p');
      plain.className = 'plain-text';
      plain.textContent = text;
      this.element.append(plain);
      this.#dirty = false;
      this.#final = true;
    }
  }

  #flush(final: boolean, limit = Infinity): void {
    if (this.#final) {
      if (!this.#dirty) return;
      this.#restart(this.text);
    }
    if (!final && !this.#dirty) return;
    const started = performance.now();
    let source = this.#tailText;
    let partial = false;
    if (!final && source.length > limit) {
      const cut = source.indexOf('\n', limit);
      if (cut !== -1 && cut + 1 < source.length) {
        source = source.slice(0, cut + 1);
        partial = true;
      }
    }
    const env: MarkdownEnv = { references: { ...this.#references } };
    const tokens = md.parse(source, env);
    if (final && Object.keys(env.references ?? {}).length > 0 && this.#rendered) {
      // A reference may be used above its definition, and blocks rendered before the definition
      // arrived would be kept: only a whole-text render gets that right.
      this.#restart(this.text);
      return this.#flush(true);
    }
    const lines = lineStarts(source);
    const blocks = topLevelBlocks(tokens);
    this.#render(tokens, blocks, lines, source, final);
    renderPace.record(source.length, performance.now() - started);
    this.#shownChars = source.length;
    this.#dirty = partial || (this.#ended && !final);
    this.#rendered = true;
    this.#final = final;
    if (!final) this.#settle(blocks, lines, source);
  }

  /**
   * Shows text that arrived since the last flush as written, formatting nothing: for a streaming
   * reply a frame's budget did not reach (another agent's took it). A restored or finished text
   * waits for its flush instead, so reopening a long history does not lay out all of it at once.
   */
  showArrived(): void {
    if (!this.#ended && !this.#final) this.#showPending();
  }

  /** Shows the text the last flush left unformatted, or nothing once it is all formatted. */
  #showPending(): void {
    const pending = this.#pending;
    const at = this.#settledText.length;
    pending.show(this.#tailText, at, at + this.#shownChars);
    if (pending.shown && !pending.element.parentNode) this.element.append(pending.element);
    else if (!pending.shown) pending.element.remove();
  }

  #chunkFor(blockIndex: number): HTMLElement {
    const wanted = Math.floor(blockIndex / BLOCKS_PER_CHUNK);
    while (this.#chunks.length <= wanted) {
      const chunk = document.createElement('div');
      chunk.className = 'md-chunk';
      // Above the unformatted text, which stays last.
      this.element.insertBefore(
        chunk,
        this.#pending.element.parentNode === this.element ? this.#pending.element : null,
      );
      this.#chunks.push(chunk);
    }
    return this.#chunks[wanted]!;
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
    let open: RenderedBlock | undefined;
    const last = blocks.at(-1);
    const lastToken = last && tokens[last.from]!;
    if (!final && last && lastToken!.type === 'fence' && fenceIsOpen(lastToken!, lines, source)) {
      const previous = this.#tail[blocks.length - 1];
      const growing = previous?.open;
      const text = sourceOf(last);
      if (
        previous &&
        growing &&
        blocks.length - 1 === firstChanged &&
        growing.info === lastToken!.info &&
        lastToken!.content.startsWith(growing.content)
      ) {
        // A growing fence keeps its element and gains only the new text.
        growing.code.append(lastToken!.content.slice(growing.content.length));
        kept = { source: text, nodes: previous.nodes, open: { ...growing, content: lastToken!.content } };
        open = kept;
      } else if (blocks.length - 1 >= firstChanged) {
        const { block: element, code } = plainCodeBlock(lastToken!.info, lastToken!.content);
        open = { source: text, nodes: [element], open: { info: lastToken!.info, content: lastToken!.content, code } };
      }
    }
    const toRender = blocks.slice(firstChanged, open ? -1 : undefined);
    const rendered = renderBlocks(
      tokens,
      toRender.map((block) => [block.from, block.to] as const),
      { references: this.#references },
    );
    toRender.forEach((block, offset) => next.push({ source: sourceOf(block), nodes: rendered[offset]! }));
    if (open) next.push(open);
    for (const stale of this.#tail.slice(firstChanged)) {
      if (kept && stale.nodes === kept.nodes) continue;
      for (const node of stale.nodes) node.remove();
    }
    for (const [offset, block] of next.slice(firstChanged).entries()) {
      if (kept && block === kept) continue;
      this.#chunkFor(this.#settledBlocks + firstChanged + offset).append(...block.nodes);
    }
    while (this.#chunks.length > 0 && !this.#chunks.at(-1)!.hasChildNodes()) this.#chunks.pop()!.remove();
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
    this.#settledText += finished;
    this.#tailText = this.#tailText.slice(advance);
    this.#settledBlocks += settled;
    this.#shownChars -= advance;
    this.#tail = this.#tail.slice(settled);
  }

  /** Forgets everything rendered; `text` becomes the tail, to be parsed whole. */
  #restart(text: string): void {
    this.element.replaceChildren();
    this.#pending.clear();
    this.#chunks = [];
    this.#settledText = '';
    this.#tailText = text;
    this.#settledBlocks = 0;
    this.#shownChars = 0;
    this.#tail = [];
    this.#references = {};
    this.#rendered = false;
    this.#final = false;
    this.#ended = false;
    this.#dirty = text !== '';
  }
}
