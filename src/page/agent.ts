/**
 * The page agent: one per document, answering the panel's commands. It keeps the ref registry
 * for its document between calls.
 */
import { PageCommand, type PageEnvelope } from './protocol';
import { RefRegistry, refPrefix } from './refs';
import { snapshotLines } from './snapshot';

export class PageError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class PageAgent {
  #refs: RefRegistry | undefined;

  constructor(private readonly document: Document) {}

  #registry(frameId: number): RefRegistry {
    this.#refs ??= new RefRegistry(refPrefix(frameId));
    return this.#refs;
  }

  handle(raw: unknown): PageEnvelope {
    try {
      return { ok: true, value: this.#dispatch(PageCommand.parse(raw)) };
    } catch (error) {
      if (error instanceof PageError) return { ok: false, error: error.message, code: error.code };
      return { ok: false, error: String((error as Error)?.message ?? error), code: 'internal' };
    }
  }

  #dispatch(command: ReturnType<typeof PageCommand.parse>): unknown {
    switch (command.op) {
      case 'snapshot': {
        const refs = this.#registry(command.frameId);
        refs.startAt(command.refBase);
        const root = command.selector ? this.document.querySelector(command.selector) : this.document.body;
        if (!root) throw new PageError(`No element matches the selector ${command.selector}.`, 'no-match');
        const lines = snapshotLines(root, refs);
        return { title: this.document.title, url: this.document.URL, lines, nextRef: refs.next };
      }
      case 'click': {
        const element = this.#target(command.target);
        (element as HTMLElement).scrollIntoView?.({ block: 'center', inline: 'center' });
        if (command.double) {
          (element as HTMLElement).click();
          (element as HTMLElement).click();
        } else {
          (element as HTMLElement).click();
        }
        return { description: `Clicked ${describe(element)}` };
      }
    }
  }

  #target(target: { ref: string } | { selector: string }): Element {
    if ('ref' in target) {
      const element = this.#refs?.resolve(target.ref);
      if (!element) {
        throw new PageError(
          `Ref ${target.ref} is stale: its element is gone or belongs to an earlier page. Call snapshot again.`,
          'stale-ref',
        );
      }
      return element;
    }
    const element = this.document.querySelector(target.selector);
    if (!element) throw new PageError(`No element matches the selector ${target.selector}.`, 'no-match');
    return element;
  }
}

function describe(element: Element): string {
  const text = (element.textContent ?? '').trim().slice(0, 60);
  return `<${element.tagName.toLowerCase()}>${text ? ` "${text}"` : ''}`;
}
