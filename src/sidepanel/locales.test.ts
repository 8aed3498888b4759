import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Messages a translation may leave as in English: product names, not words. */
const SAME_AS_ENGLISH = new Set(['extName', 'appTitle']);

interface Message {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}

const LOCALES = join(import.meta.dirname, '../../public/_locales');

function read(locale: string): Record<string, Message> {
  return JSON.parse(readFileSync(join(LOCALES, locale, 'messages.json'), 'utf8')) as Record<string, Message>;
}

/** `$1`…`$9` and named `$NAME$` references, sorted with repeats kept once; `$$` is a literal dollar. */
function substitutions(text: string): string[] {
  const found = text.replaceAll('$$', '').match(/\$[1-9]|\$[A-Za-z0-9_@]+\$/g) ?? [];
  return [...new Set(found.map((token) => token.toLowerCase()))].sort();
}

const english = read('en');
const translations = readdirSync(LOCALES).filter((locale) => locale !== 'en');

describe('locale files', () => {
  it('include Traditional Chinese (Taiwan)', () => {
    expect(translations).toContain('zh_TW');
  });

  describe.each(translations)('%s', (locale) => {
    const translated = read(locale);

    it('has every English key and no other', () => {
      const missing = Object.keys(english).filter((key) => !(key in translated));
      const extra = Object.keys(translated).filter((key) => !(key in english));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('has a non-empty message for every key', () => {
      const empty = Object.keys(english).filter((key) => !translated[key]?.message?.trim());
      expect(empty).toEqual([]);
    });

    it('keeps the placeholders of each English message', () => {
      const differing = Object.keys(english)
        .filter((key) => key in translated)
        .filter(
          (key) =>
            substitutions(english[key]!.message).join() !== substitutions(translated[key]!.message).join() ||
            JSON.stringify(english[key]!.placeholders) !== JSON.stringify(translated[key]!.placeholders),
        );
      expect(differing).toEqual([]);
    });

    it('translates every message but the product names', () => {
      const untranslated = Object.keys(english).filter(
        (key) => !SAME_AS_ENGLISH.has(key) && translated[key]?.message === english[key]!.message,
      );
      expect(untranslated).toEqual([]);
    });

    it('names its own language as the document language', () => {
      expect(translated.languageTag?.message).toBe(locale.replace('_', '-'));
    });
  });
});

describe('substitutions', () => {
  it('finds numbered and named placeholders, not a literal dollar', () => {
    expect(substitutions('$2 of $1 ($1) cost $$5, $COUNT$')).toEqual(['$1', '$2', '$count$']);
  });
});
