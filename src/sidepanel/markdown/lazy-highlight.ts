/**
 * Code blocks are highlighted only while they are near the view. A highlighted block costs one
 * element and one text node per token (dozens per block), so a long conversation would carry tens
 * of thousands of nodes nobody looks at. Off-screen code stays what markdown-it rendered: its text
 * in one node, which find-in-page, selection, copying and screen readers read exactly the same.
 *
 * Two observers give hysteresis: a block is highlighted once it comes within about a screen of the
 * view (so it is coloured before it scrolls in), and goes back to plain text only when it is far
 * away, so scrolling to and fro does not redo the work at the edge. Blocks that come near together
 * are highlighted a task's budget at a time.
 */
import { highlightCode, languageOf, scopeClasses, type HighlightedCode } from './highlight';
import { allowedClasses, sanitizeToFragment } from './sanitize';

/** Within this distance of the view a block is highlighted. */
const NEAR = '1200px 0px';
/** Beyond this distance a highlighted block returns to plain text. */
const FAR = '6000px 0px';

export type ObserverFactory = (
  callback: IntersectionObserverCallback,
  options: IntersectionObserverInit,
) => IntersectionObserver;

interface Watched {
  code: HTMLElement;
  /** The code as written, which a highlighted rendering must reproduce character for character. */
  raw: string;
  language: string;
  highlighted: boolean;
}

/** The language markdown-it named on the `<code>` element (`language-ts`), or an empty string. */
function languageClass(code: Element): string {
  return /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '';
}

/**
 * The elements highlight.js's markup stands for, made directly from its token tree: spans with the
 * classes it would write (filtered as the sanitizer filters them) around text nodes. Nothing is
 * parsed, so nothing in the code can become markup; adjacent text joins into one node, as parsing
 * the markup would join it.
 */
function nodesFromTokens(walk: NonNullable<HighlightedCode['walk']>): ChildNode[] {
  const root = document.createElement('code');
  // One entry per open token: its span, or the enclosing element for a token without a scope.
  const parents: Element[] = [root];
  walk({
    addText(text) {
      const parent = parents.at(-1)!;
      const last = parent.lastChild;
      if (last?.nodeType === Node.TEXT_NODE) (last as Text).appendData(text);
      else parent.append(text);
    },
    openNode(node) {
      const parent = parents.at(-1)!;
      if (!node.scope) return void parents.push(parent);
      const span = document.createElement('span');
      const classes = allowedClasses(scopeClasses(node.scope));
      if (classes) span.className = classes;
      parent.append(span);
      parents.push(span);
    },
    closeNode() {
      parents.pop();
    },
  });
  return [...root.childNodes];
}

function sanitizedNodes(html: string): ChildNode[] | undefined {
  const fragment = sanitizeToFragment(`<code>${html}</code>`);
  const code = fragment.firstChild;
  if (fragment.childNodes.length !== 1 || code?.nodeName !== 'CODE') return undefined;
  return [...code.childNodes];
}

/**
 * Highlighted nodes for `raw`, or undefined when the language is unknown or the result would not
 * read as the same text (then plain text is the honest rendering). Built from highlight.js's token
 * tree where it offers one, else from its markup through the sanitizer.
 */
export function highlightedNodes(raw: string, language: string): ChildNode[] | undefined {
  const highlighted = highlightCode(raw, language);
  if (highlighted === undefined) return undefined;
  const nodes = highlighted.walk ? nodesFromTokens(highlighted.walk) : sanitizedNodes(highlighted.html);
  if (!nodes || nodes.map((node) => node.textContent).join('') !== raw) return undefined;
  return nodes;
}

/** Watched blocks at which removed ones are first looked for. */
const FIRST_SWEEP = 256;
/**
 * Script time one task spends highlighting. Many blocks can come near at once (a restored history,
 * a jump to the top of a long reply); the rest wait for the next task, so none is a long task.
 */
const HIGHLIGHT_BUDGET_MS = 8;

export class LazyHighlighter {
  readonly #watched = new Map<Element, Watched>();
  readonly #near: IntersectionObserver | undefined;
  readonly #far: IntersectionObserver | undefined;
  /** Blocks that came near and wait for their turn, in the order they came. */
  readonly #queue = new Set<Element>();
  #draining: ReturnType<typeof setTimeout> | undefined;
  #sweepAt = FIRST_SWEEP;

  constructor(createObserver: ObserverFactory | undefined) {
    if (!createObserver) return;
    // The transcript scrolls inside the panel: `scrollMargin` widens that scroller's clip as
    // `rootMargin` widens the panel's own viewport.
    this.#near = createObserver((entries) => this.#onNear(entries), { rootMargin: NEAR, scrollMargin: NEAR });
    this.#far = createObserver((entries) => this.#onFar(entries), { rootMargin: FAR, scrollMargin: FAR });
  }

  /** Takes charge of a rendered code block (`block` holds `code`, a `<code>` with plain text). */
  watch(block: HTMLElement, code: HTMLElement): void {
    const language = languageOf(languageClass(code));
    if (!language) return;
    const watched: Watched = { code, raw: code.textContent ?? '', language, highlighted: false };
    if (!this.#near || !this.#far) {
      // Nothing can say where the block is: highlight it now, as if it were in view.
      this.#highlight(watched);
      return;
    }
    this.#watched.set(block, watched);
    this.#near.observe(block);
    this.#far.observe(block);
  }

  /** How many blocks are watched (removed blocks included until the next sweep). */
  get size(): number {
    return this.#watched.size;
  }

  #onNear(entries: IntersectionObserverEntry[]): void {
    this.#sweep();
    for (const entry of entries) {
      // A block that moved away again before its turn is not worth highlighting.
      if (!entry.isIntersecting) this.#queue.delete(entry.target);
      else if (this.#watched.get(entry.target)?.highlighted === false) this.#queue.add(entry.target);
    }
    this.#drain();
  }

  /** Highlights waiting blocks until the budget is spent (at least one), then goes on in a later task. */
  #drain(): void {
    clearTimeout(this.#draining);
    this.#draining = undefined;
    const started = performance.now();
    for (const block of this.#queue) {
      if (performance.now() - started >= HIGHLIGHT_BUDGET_MS) {
        this.#draining = setTimeout(() => this.#drain(), 0);
        return;
      }
      this.#queue.delete(block);
      const watched = this.#watched.get(block);
      if (!watched || watched.highlighted || !block.isConnected) continue;
      if (!this.#highlight(watched)) this.#forget(block);
    }
  }

  #onFar(entries: IntersectionObserverEntry[]): void {
    this.#sweep();
    for (const entry of entries) {
      if (entry.isIntersecting) continue;
      if (!entry.target.isConnected) {
        this.#forget(entry.target);
        continue;
      }
      const watched = this.#watched.get(entry.target);
      if (!watched?.highlighted) continue;
      // A selection reaching into the block would lose its ends with the nodes it points at.
      if (selectionTouches(watched.code)) continue;
      watched.code.textContent = watched.raw;
      watched.highlighted = false;
    }
  }

  /** Highlights a block; false when its language cannot be highlighted, so it need not be watched. */
  #highlight(watched: Watched): boolean {
    const nodes = highlightedNodes(watched.raw, watched.language);
    if (!nodes) return false;
    watched.code.replaceChildren(...nodes);
    watched.highlighted = true;
    return true;
  }

  /**
   * Stops watching blocks that left the document (a re-rendered part of a reply, a cleared
   * screen), once their number could matter. Observer callbacks run after the frame's rendering,
   * when every block rendered in it has been inserted, so a detached block here is gone for good.
   */
  #sweep(): void {
    if (this.#watched.size < this.#sweepAt) return;
    for (const block of this.#watched.keys()) if (!block.isConnected) this.#forget(block);
    this.#sweepAt = Math.max(FIRST_SWEEP, this.#watched.size * 2);
  }

  #forget(block: Element): void {
    this.#watched.delete(block);
    this.#queue.delete(block);
    this.#near?.unobserve(block);
    this.#far?.unobserve(block);
  }
}

function selectionTouches(node: Node): boolean {
  const selection = document.getSelection();
  if (!selection) return false;
  for (let index = 0; index < selection.rangeCount; index++) {
    if (selection.getRangeAt(index).intersectsNode(node)) return true;
  }
  return false;
}

let shared: LazyHighlighter | undefined;

/** The panel's highlighter, made on first use with the observer the environment has (if any). */
export function lazyHighlighter(): LazyHighlighter {
  shared ??= new LazyHighlighter(
    typeof IntersectionObserver === 'function'
      ? (callback, options) => new IntersectionObserver(callback, options)
      : undefined,
  );
  return shared;
}
