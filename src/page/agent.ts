/**
 * The page agent: one per document, answering the panel's commands. It keeps the ref registry
 * for its document between calls. Each command lives in `commands/` and is listed once here.
 */
import { runClick } from './commands/click';
import { runDrag } from './commands/drag';
import { runFillForm } from './commands/fill-form';
import { runHover } from './commands/hover';
import { runPressKey } from './commands/press-key';
import { runScroll } from './commands/scroll';
import { runSelectOption } from './commands/select-option';
import { runSettle } from './commands/settle';
import { runType } from './commands/type';
import { runUpload } from './commands/upload';
import { runInspectTargets } from './commands/inspect-targets';
import { runGetText } from './commands/get-text';
import { runOutline } from './commands/outline';
import { runReadDom } from './commands/read-dom';
import { runFrameRects } from './commands/frame-rects';
import { runFrameSlots, runSnapshot } from './commands/snapshot';
import { runViewport } from './commands/viewport';
import { runCancelWait, runWaitFor } from './commands/wait-for';
import { runExtract } from './commands/extract';
import { runFetch } from './commands/fetch';
import { listenerQuery, recordAsker, type ListenerQuery, type RecordAsker } from './listener-channel';
import { installedRelay, type DialogRelay } from './dialogs/relay';
import { runPageState } from './commands/page-state';
import { runPersonIdle } from './commands/person-idle';
import { PersonInput } from './person-input';
import { pageClock } from './clock';
import { PageError, type PageEnv } from './env';
import { FrameHandshake } from './frame-handshake';
import { PageCommand, type ElementTarget, type PageEnvelope } from './protocol';
import { RefRegistry, refPrefix } from './refs';
import { rememberPasswordField, watchPasswordToggles } from './secret-field';
import type { z } from 'zod';

type Parsed = z.output<typeof PageCommand>;
type Handlers = { [Op in Parsed['op']]: (command: Extract<Parsed, { op: Op }>, env: PageEnv) => unknown };

const handlers: Handlers = {
  snapshot: runSnapshot,
  inspectTargets: runInspectTargets,
  click: runClick,
  type: runType,
  fillForm: runFillForm,
  selectOption: runSelectOption,
  pressKey: runPressKey,
  scroll: runScroll,
  hover: runHover,
  upload: runUpload,
  drag: runDrag,
  settle: runSettle,
  getText: runGetText,
  readDom: runReadDom,
  waitFor: runWaitFor,
  cancelWait: runCancelWait,
  viewport: runViewport,
  frameSlots: runFrameSlots,
  outline: runOutline,
  frameRects: runFrameRects,
  extract: runExtract,
  pageState: runPageState,
  fetch: runFetch,
  personIdle: runPersonIdle,
};

/** Works in insecure contexts too (plain http), where `crypto.randomUUID` is missing. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

type Unsigned<T> = T extends unknown ? Omit<T, 'url' | 'documentId'> : never;

function failure(error: unknown): Unsigned<PageEnvelope> {
  if (error instanceof PageError) return { ok: false, error: error.message, code: error.code };
  return { ok: false, error: String((error as Error)?.message ?? error), code: 'internal' };
}

export class PageAgent implements PageEnv {
  #refs: RefRegistry | undefined;
  readonly documentId = randomId();
  readonly waits = new Map<string, AbortController>();
  readonly frames: FrameHandshake;
  readonly person: PersonInput;

  constructor(readonly document: Document) {
    this.frames = new FrameHandshake(document.defaultView ?? window);
    this.person = new PersonInput(document.defaultView ?? window);
    watchPasswordToggles(document);
  }

  queryRoot(selector: string | undefined): Element {
    const fallback = this.document.body ?? this.document.documentElement;
    if (!selector) return fallback;
    let element: Element | null;
    try {
      element = this.document.querySelector(selector);
    } catch {
      throw new PageError(`The selector ${selector} is not valid CSS.`, 'bad-selector');
    }
    if (!element) throw new PageError(`No element matches the selector ${selector}.`, 'no-match');
    return element;
  }

  dialogRelay(): DialogRelay | undefined {
    return installedRelay(this.document.defaultView);
  }

  pageRecord(): RecordAsker | undefined {
    const view = this.document.defaultView;
    return view ? recordAsker(this.document, view, this.#unmarked) : undefined;
  }

  ownListeners(): ListenerQuery | undefined {
    const view = this.document.defaultView;
    return view ? listenerQuery(this.document, view, this.#unmarked) : undefined;
  }

  /**
   * How the agent's questions to the page record are sent. They are no action's, though the dialog
   * relay marks every dispatch of this world as one: marked, each would count the page's next
   * microtasks as the action's (a dialog there would get the action's answer), and a read asking
   * about every element would queue that many microtasks after itself.
   */
  readonly #unmarked = (target: EventTarget, event: Event): boolean => {
    const relay = this.dialogRelay();
    return relay ? relay.dispatchUnmarked(target, event) : target.dispatchEvent(event);
  };

  refs(frameId = 0): RefRegistry {
    this.#refs ??= new RefRegistry(refPrefix(frameId));
    return this.#refs;
  }

  resolveTarget(target: ElementTarget): Element {
    const element = this.#resolve(target);
    rememberPasswordField(element);
    return element;
  }

  #resolve(target: ElementTarget): Element {
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

  /** A tick of Tabwright's clock, sent by the panel while a command runs here (see `clock.ts`). */
  tick(): void {
    pageClock.tick();
  }

  /** Synchronous commands answer at once; asynchronous ones return a promise executeScript awaits. */
  handle(raw: unknown): PageEnvelope | Promise<PageEnvelope> {
    try {
      const command = PageCommand.parse(raw);
      const handler = handlers[command.op] as (command: Parsed, env: PageEnv) => unknown;
      const value = handler(command, this);
      if (value instanceof Promise) {
        return value.then(
          (resolved) => this.#sign({ ok: true, value: resolved }),
          (error) => this.#sign(failure(error)),
        );
      }
      return this.#sign({ ok: true, value });
    } catch (error) {
      return this.#sign(failure(error));
    }
  }

  /** Stamps a reply with where it was produced, read when it is sent (a route may have changed meanwhile). */
  #sign(envelope: Unsigned<PageEnvelope>): PageEnvelope {
    return { ...envelope, url: this.document.location?.href ?? '', documentId: this.documentId } as PageEnvelope;
  }
}
