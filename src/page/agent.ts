/**
 * The page agent: one per document, answering the panel's commands. It keeps the ref registry
 * for its document between calls. Each command lives in `commands/` and is listed once here.
 */
import { runClick } from './commands/click';
import { runSnapshot } from './commands/snapshot';
import { PageError, type PageEnv } from './env';
import { PageCommand, type ElementTarget, type PageEnvelope } from './protocol';
import { RefRegistry, refPrefix } from './refs';
import type { z } from 'zod';

type Parsed = z.output<typeof PageCommand>;
type Handlers = { [Op in Parsed['op']]: (command: Extract<Parsed, { op: Op }>, env: PageEnv) => unknown };

const handlers: Handlers = {
  snapshot: runSnapshot,
  click: runClick,
};

export class PageAgent implements PageEnv {
  #refs: RefRegistry | undefined;

  constructor(readonly document: Document) {}

  refs(frameId = 0): RefRegistry {
    this.#refs ??= new RefRegistry(refPrefix(frameId));
    return this.#refs;
  }

  resolveTarget(target: ElementTarget): Element {
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
    let element: Element | null;
    try {
      element = this.document.querySelector(target.selector);
    } catch {
      throw new PageError(`The selector ${target.selector} is not valid CSS.`, 'bad-selector');
    }
    if (!element) throw new PageError(`No element matches the selector ${target.selector}.`, 'no-match');
    return element;
  }

  handle(raw: unknown): PageEnvelope {
    try {
      const command = PageCommand.parse(raw);
      const handler = handlers[command.op] as (command: Parsed, env: PageEnv) => unknown;
      return { ok: true, value: handler(command, this) };
    } catch (error) {
      if (error instanceof PageError) return { ok: false, error: error.message, code: error.code };
      return { ok: false, error: String((error as Error)?.message ?? error), code: 'internal' };
    }
  }
}
