/**
 * The hints each WebMCP tool is registered with, copied as the page registers it. Chromium keeps
 * only some of them (its `getTools()` drops MCP's `destructiveHint`), and a page can hand
 * `registerTool` a descriptor whose getters answer differently on every read, so this hook reads
 * every field once, gives Chromium that copy and never the page's object, and keeps the hints it
 * copied for the panel. The copy Chromium gets marks a destructive tool `consequentialHint`, the
 * one destructive signal Chromium keeps, so its own list says so too.
 *
 * It goes in at document_start on allowed sites, before any page script, so a tool registered
 * through the page's `registerTool` passes here. One registered any other way (a method taken from
 * a fresh frame's realm, or in a document loaded before the hook existed) has no record, and the
 * panel treats it as a write confirmed on every call. What is kept per name only gets stricter for
 * the life of the document: once registered destructive, always destructive; read-only only while
 * every registration under that name said so.
 *
 * Must not close over panel code: it is bundled into the main-world content script.
 */

/** The window property through which the panel's main-world calls read the records. */
export const TOOL_REGISTRATIONS_KEY = '__tabwrightToolRegistrations';

/** Past this many names, new ones go unrecorded (and are confirmed on every call). */
export const MAX_RECORDED_NAMES = 256;

/** What the reader returns for one name; with no name, every live record as `[name, readOnly, destructive][]` JSON. */
export interface RegistrationRecord {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
}

interface Kept {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  /** The registration that holds the name now, or 0 when it was withdrawn. */
  live: number;
}

type HookWindow = Window & typeof globalThis;

/** Chromium 156 reads exactly these from the descriptor, its annotations and the options. */
const TOOL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'execute'] as const;
const PASSED_HINTS = ['untrustedContentHint', 'debugging'] as const;
const HINT_FIELDS = [...PASSED_HINTS, 'readOnlyHint', 'destructiveHint', 'consequentialHint'];
const OPTION_FIELDS = ['signal', 'exposedTo'] as const;

export function installToolRegistrationHook(win: HookWindow): void {
  const interfaceObject = (win as unknown as { ModelContext?: { prototype: Record<string, unknown> } }).ModelContext;
  const prototype = interfaceObject?.prototype;
  const original = prototype?.registerTool as ((...args: unknown[]) => unknown) | undefined;
  if (!prototype || typeof original !== 'function') return;
  const context = (win.document as unknown as { modelContext?: unknown }).modelContext;
  // Taken now: page scripts run later and may replace any of them, `Function.prototype.call` too.
  const apply = win.Reflect.apply;
  const stringify = win.JSON.stringify;
  const listen = win.EventTarget.prototype.addEventListener;
  const then = win.Promise.prototype.then;
  const createObject = win.Object.create;
  const freeze = win.Object.freeze;
  const defineProperty = win.Object.defineProperty;
  // Null-prototype objects throughout: setters a page puts on Object.prototype or Array.prototype
  // cannot catch what is written into them, nor a `toJSON` change what is read out.
  const blank = <T>() => createObject(null) as T;
  const kept = blank<Record<string, Kept | undefined>>();
  const names = blank<Record<number, string>>();
  let count = 0;
  let registrations = 0;

  const copyOf = (source: unknown, fields: readonly string[]): Record<string, unknown> | undefined => {
    if ((typeof source !== 'object' && typeof source !== 'function') || source === null) return undefined;
    const copy = blank<Record<string, unknown>>();
    // Index loops: a page can replace the array iterator, not our arrays' own elements.
    for (let i = 0; i < fields.length; i++) {
      const value = (source as Record<string, unknown>)[fields[i]!];
      if (value !== undefined) copy[fields[i]!] = value;
    }
    return copy;
  };

  function register(this: unknown, tool: unknown, options?: unknown): unknown {
    const copy = copyOf(tool, TOOL_FIELDS) ?? blank<Record<string, unknown>>();
    const given = copyOf(tool, ['annotations'])?.annotations;
    const hints = copyOf(given, HINT_FIELDS);
    // Read-only only when said plainly; any truthy destructive signal counts.
    const readOnlyHint = hints?.readOnlyHint === true;
    const destructiveHint = !!hints?.destructiveHint || !!hints?.consequentialHint;
    const annotations = blank<Record<string, unknown>>();
    annotations.readOnlyHint = readOnlyHint;
    annotations.consequentialHint = destructiveHint;
    annotations.destructiveHint = destructiveHint;
    for (let i = 0; i < PASSED_HINTS.length; i++) {
      const hint = PASSED_HINTS[i]!;
      if (hints && hint in hints) annotations[hint] = hints[hint];
    }
    copy.annotations = annotations;
    // Anything but an options object goes on as it came, for Chromium to refuse as before.
    const passedOptions = copyOf(options, OPTION_FIELDS) ?? options;
    const pass = () => apply(original!, this, [copy, passedOptions]);
    const name = copy.name;
    if (this !== context || typeof name !== 'string') return pass();

    const before = kept[name];
    if (!before && count >= MAX_RECORDED_NAMES) return pass();
    // The name is taken, so Chromium refuses this one and the record stays as it is.
    if (before?.live) return pass();
    const id = ++registrations;
    // Kept before Chromium holds the tool, so no reading finds the tool without its record.
    const record = blank<Kept>();
    record.readOnlyHint = before ? before.readOnlyHint && readOnlyHint : readOnlyHint;
    record.destructiveHint = (before?.destructiveHint ?? false) || destructiveHint;
    record.live = id;
    kept[name] = record;
    if (!before) names[count++] = name;
    const withdrawn = () => {
      if (kept[name]?.live === id) kept[name]!.live = 0;
    };
    let result: unknown;
    try {
      result = pass();
    } catch (error) {
      withdrawn();
      throw error;
    }
    try {
      apply(then, result, [undefined, withdrawn]);
    } catch {
      // Not a promise Chromium made: nothing says the tool was taken.
      withdrawn();
    }
    const signal = (passedOptions as Record<string, unknown> | undefined)?.signal;
    if (signal !== undefined) {
      try {
        apply(listen, signal, ['abort', withdrawn]);
      } catch {
        withdrawn();
      }
    }
    return result;
  }

  function read(name?: unknown): string | RegistrationRecord | undefined {
    if (typeof name === 'string') {
      const record = kept[name];
      if (!record?.live) return undefined;
      const answer = blank<{ readOnlyHint: boolean; destructiveHint: boolean }>();
      answer.readOnlyHint = record.readOnlyHint;
      answer.destructiveHint = record.destructiveHint;
      return freeze(answer);
    }
    // Written out by hand: only strings go through JSON.stringify, which a page's toJSON cannot reach.
    let text = '[';
    for (let i = 0; i < count; i++) {
      const record = kept[names[i]!]!;
      if (!record.live) continue;
      text += `${text === '[' ? '' : ','}[${stringify(names[i])},${record.readOnlyHint},${record.destructiveHint}]`;
    }
    return `${text}]`;
  }

  const replacement = { registerTool: register }.registerTool;
  defineProperty(prototype, 'registerTool', {
    value: replacement,
    writable: true,
    configurable: true,
    enumerable: true,
  });
  // Defined once, before any page script: the page can call it but never replace it.
  defineProperty(win, TOOL_REGISTRATIONS_KEY, {
    value: freeze(read),
    writable: false,
    configurable: false,
    enumerable: false,
  });
}
