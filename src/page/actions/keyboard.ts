/**
 * Key names as agents write them ("Enter", "Control+a", "Shift+Tab", "ArrowDown", "é") turned into
 * the fields a KeyboardEvent carries. Pages still read `keyCode` and `code` as often as `key`, so
 * all three are filled as a US keyboard would.
 */

export interface KeyDefinition {
  /** `KeyboardEvent.key` */
  key: string;
  /** `KeyboardEvent.code`; empty for characters no US key produces. */
  code: string;
  /** `KeyboardEvent.keyCode` (and `which`); 0 when unknown. */
  keyCode: number;
  /** The text the key inserts, when it inserts any. */
  text?: string;
  /** Shift is needed to produce this character on a US keyboard. */
  shifted?: boolean;
  location?: number;
}

export interface Modifiers {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export interface KeyPress {
  definition: KeyDefinition;
  modifiers: Modifiers;
}

const NAMED: Record<string, Omit<KeyDefinition, 'key'>> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { code: 'Tab', keyCode: 9 },
  Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  Insert: { code: 'Insert', keyCode: 45 },
  Home: { code: 'Home', keyCode: 36 },
  End: { code: 'End', keyCode: 35 },
  PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ' ': { code: 'Space', keyCode: 32, text: ' ' },
  Shift: { code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { code: 'MetaLeft', keyCode: 91, location: 1 },
  CapsLock: { code: 'CapsLock', keyCode: 20 },
  ContextMenu: { code: 'ContextMenu', keyCode: 93 },
  Pause: { code: 'Pause', keyCode: 19 },
  PrintScreen: { code: 'PrintScreen', keyCode: 44 },
  ScrollLock: { code: 'ScrollLock', keyCode: 145 },
  NumLock: { code: 'NumLock', keyCode: 144 },
};

/** Other spellings agents use for the same keys. */
const ALIASES: Record<string, string> = {
  return: 'Enter',
  esc: 'Escape',
  space: ' ',
  spacebar: ' ',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  pagedown: 'PageDown',
  pageup: 'PageUp',
  ctrl: 'Control',
  control: 'Control',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
  super: 'Meta',
  win: 'Meta',
  option: 'Alt',
  alt: 'Alt',
  shift: 'Shift',
};

/** US punctuation: unshifted and shifted character on one key, with its code and keyCode. */
const PUNCTUATION: Array<[string, string, string, number]> = [
  ['`', '~', 'Backquote', 192],
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
];
const SHIFTED_DIGITS = ')!@#$%^&*(';

/** The key that types one character, as a US keyboard would produce it. */
export function characterKey(character: string): KeyDefinition {
  if (character === '\n' || character === '\r') return { key: 'Enter', ...NAMED.Enter!, text: '\n' };
  if (character === '\t') return { key: 'Tab', ...NAMED.Tab! };
  if (character === ' ') return { key: ' ', ...NAMED[' ']! };
  if (/^[a-z]$/.test(character)) {
    const upper = character.toUpperCase();
    return { key: character, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: character };
  }
  if (/^[A-Z]$/.test(character)) {
    return {
      key: character,
      code: `Key${character}`,
      keyCode: character.charCodeAt(0),
      text: character,
      shifted: true,
    };
  }
  if (/^[0-9]$/.test(character)) {
    return { key: character, code: `Digit${character}`, keyCode: character.charCodeAt(0), text: character };
  }
  const shiftedDigit = SHIFTED_DIGITS.indexOf(character);
  if (shiftedDigit >= 0) {
    return { key: character, code: `Digit${shiftedDigit}`, keyCode: 48 + shiftedDigit, text: character, shifted: true };
  }
  for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
    if (character === plain) return { key: character, code, keyCode, text: character };
    if (character === shifted) return { key: character, code, keyCode, text: character, shifted: true };
  }
  // Characters a US keyboard has no key for (é, 日, emoji) arrive as text with no code.
  return { key: character, code: '', keyCode: 0, text: character };
}

/** A key by name ("Enter", "F5", "ArrowDown", "a", "space"), or undefined when it names no key. */
export function namedKey(name: string): KeyDefinition | undefined {
  const canonical = NAMED[name] ? name : ALIASES[name.toLowerCase()];
  if (canonical !== undefined) return { key: canonical, ...NAMED[canonical]! };
  const fn = /^f([1-9]|1[0-9]|2[0-4])$/i.exec(name);
  if (fn) {
    const n = Number(fn[1]);
    return { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };
  }
  const named = Object.keys(NAMED).find((known) => known.toLowerCase() === name.toLowerCase());
  if (named) return { key: named, ...NAMED[named]! };
  if ([...name].length === 1) return characterKey(name);
  return undefined;
}

const MODIFIER_FIELD: Record<string, keyof Modifiers> = {
  Control: 'ctrlKey',
  Shift: 'shiftKey',
  Alt: 'altKey',
  Meta: 'metaKey',
};

export class KeyNameError extends Error {}

/**
 * Parses "Control+Shift+A" style combinations. The last part is the key; the parts before it are
 * modifiers. "+" alone, or as the last part ("Control++"), is the plus key.
 */
export function parseKeyCombo(combo: string, platform: 'mac' | 'other' = 'other'): KeyPress {
  const text = combo.trim();
  if (!text) throw new KeyNameError('No key given.');
  const parts = text === '+' ? ['+'] : text.endsWith('++') ? [...text.slice(0, -2).split('+'), '+'] : text.split('+');
  const keyName = parts.pop()!;
  const modifiers: Modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  for (const part of parts) {
    const name = part.trim();
    if (/^controlormeta$/i.test(name)) {
      modifiers[platform === 'mac' ? 'metaKey' : 'ctrlKey'] = true;
      continue;
    }
    const canonical = NAMED[name] && MODIFIER_FIELD[name] ? name : ALIASES[name.toLowerCase()];
    const field = canonical ? MODIFIER_FIELD[canonical] : undefined;
    if (!field) throw new KeyNameError(`"${name}" is not a modifier. Use Control, Shift, Alt or Meta.`);
    modifiers[field] = true;
  }
  const definition = namedKey(keyName.trim() || keyName);
  if (!definition) {
    throw new KeyNameError(
      `"${keyName}" is not a key name. Use a character ("a", "/") or a name such as Enter, Tab, Escape, ` +
        'Backspace, Delete, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Space, F1–F24.',
    );
  }
  // "Shift+a" types "A", as the real key would.
  if (modifiers.shiftKey && definition.text && /^[a-z]$/.test(definition.key)) {
    const upper = definition.key.toUpperCase();
    return { definition: { ...definition, key: upper, text: upper, shifted: true }, modifiers };
  }
  if (definition.shifted) modifiers.shiftKey = true;
  return { definition, modifiers };
}

/** Whether the press would type its text: no Control, Alt or Meta held, and the key has text. */
export function insertsText(press: KeyPress): boolean {
  const { ctrlKey, altKey, metaKey } = press.modifiers;
  return !!press.definition.text && press.definition.key !== 'Enter' && !ctrlKey && !altKey && !metaKey;
}

/** "Control+Shift+A" for the action line. */
export function describeKeyPress(press: KeyPress): string {
  const parts: string[] = [];
  if (press.modifiers.ctrlKey) parts.push('Control');
  if (press.modifiers.altKey) parts.push('Alt');
  if (press.modifiers.metaKey) parts.push('Meta');
  // "?" already says Shift; "Shift+K" is how people write a shifted letter.
  const letter = /^[A-Za-z]$/.test(press.definition.key);
  if (press.modifiers.shiftKey && (letter || !press.definition.shifted)) parts.push('Shift');
  parts.push(press.definition.key === ' ' ? 'Space' : press.definition.key);
  return parts.join('+');
}
