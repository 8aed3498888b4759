/** What every page command gets: the document, its ref registry and target resolution. */
import type { DialogRelay } from './dialogs/relay';
import type { PageErrorCode } from './error-codes';
import type { FrameHandshake } from './frame-handshake';
import type { ListenerQuery, RecordAsker } from './listener-channel';
import type { PersonInput } from './person-input';
import type { ElementTarget } from './protocol';
import type { RefRegistry } from './refs';

export class PageError extends Error {
  constructor(
    message: string,
    readonly code: PageErrorCode,
  ) {
    super(message);
  }
}

export interface PageEnv {
  readonly document: Document;
  /** Random, made once per document by its agent: the panel compares it to notice navigations. */
  readonly documentId: string;
  /** Maps this document's iframe elements to the documents inside them. */
  readonly frames: FrameHandshake;
  /** When the person last typed, clicked or scrolled here. */
  readonly person: PersonInput;
  /** Waits in progress, by id, so the panel can cancel them. */
  readonly waits: Map<string, AbortController>;
  /** The registry of this document, created with the frame's ref prefix on first use. */
  refs(frameId?: number): RefRegistry;
  /** The element a ref or selector names; throws a PageError the model can act on. */
  resolveTarget(target: ElementTarget): Element;
  /** The element a selector names in this document, or the body when there is no selector. */
  queryRoot(selector: string | undefined): Element;
  /** This frame's dialog relay, where the site's content scripts installed one. */
  dialogRelay(): DialogRelay | undefined;
  /** Asks whether an element has click, mouse, pointer or key listeners of its own; undefined when unknown or none. */
  ownListeners(): ListenerQuery | undefined;
  /** The main-world record's question channel, where the site's content scripts installed one. */
  pageRecord(): RecordAsker | undefined;
}
