/** What every page command gets: the document, its ref registry and target resolution. */
import type { ElementTarget } from './protocol';
import type { RefRegistry } from './refs';

export class PageError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface PageEnv {
  readonly document: Document;
  /** The registry of this document, created with the frame's ref prefix on first use. */
  refs(frameId?: number): RefRegistry;
  /** The element a ref or selector names; throws a PageError the model can act on. */
  resolveTarget(target: ElementTarget): Element;
}
