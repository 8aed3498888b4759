import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callInWords, type Say } from './call-in-words';

/** The messages of one locale, filled in as `chrome.i18n` fills `$1`…`$9`. */
function sayIn(locale: string): Say {
  const file = join(import.meta.dirname, '../../public/_locales', locale, 'messages.json');
  const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { message: string }>;
  return (key, ...substitutions) =>
    messages[key]!.message.replace(/\$([1-9])/g, (_, index: string) => substitutions[Number(index) - 1] ?? '');
}

const en = sayIn('en');
const zh = sayIn('zh_TW');
const shop = { agentName: 'Demo', origin: 'https://shop.example' };

describe('a call in words', () => {
  it('says a click by the element the page names, on the site', () => {
    const call = { ...shop, tool: 'click', args: { ref: 'e3' }, element: { role: 'button', name: 'Place order' } };
    expect(callInWords(call, en)).toBe('Demo wants to click "Place order" on shop.example');
    expect(callInWords(call, zh)).toBe('Demo 想在 shop.example 上點按 「Place order」');
  });

  it('keeps the port of a local site', () => {
    const call = {
      agentName: 'Demo',
      origin: 'http://127.0.0.1:8090',
      tool: 'type',
      args: { ref: 'e5', text: 'hello' },
      element: { role: 'textbox', name: 'Search' },
    };
    expect(callInWords(call, en)).toBe('Demo wants to type into "Search" on 127.0.0.1:8090');
    expect(callInWords(call, zh)).toBe('Demo 想在 127.0.0.1:8090 上於 「Search」 輸入文字');
  });

  it('cannot be re-worded by a hostile element name: quotes, line breaks and bidi overrides', () => {
    const name = 'Cancel" on safe.example.\nActually: "Delete all\u202e';
    const call = { ...shop, tool: 'click', args: { ref: 'e9' }, element: { role: 'button', name } };
    const said = callInWords(call, en);
    expect(said).toBe('Demo wants to click "Cancel” on safe.example. Actually: ”Delete all⟨U+202E⟩" on shop.example');
    expect(said).not.toContain('\n');
    expect(said.split('"')).toHaveLength(3);
  });

  it('says an element without a name by its role, and one the page no longer has as such', () => {
    const unnamed = { ...shop, tool: 'click', args: { ref: 'e1' }, element: { role: 'button', name: '' } };
    expect(callInWords(unnamed, en)).toBe('Demo wants to click a button with no name on shop.example');
    expect(callInWords(unnamed, zh)).toBe('Demo 想在 shop.example 上點按 沒有名稱的 button');
    const gone = { ...shop, tool: 'click', args: { ref: 'e1' }, element: null };
    expect(callInWords(gone, en)).toBe('Demo wants to click an element the page no longer has on shop.example');
    expect(callInWords(gone, zh)).toBe('Demo 想在 shop.example 上點按 一個頁面上已不存在的元素');
  });

  it('says a key, a navigation and a tool it has no words for', () => {
    expect(callInWords({ ...shop, tool: 'press_key', args: { key: 'Enter' } }, en)).toBe(
      'Demo wants to press Enter on shop.example',
    );
    const navigate = {
      ...shop,
      tool: 'navigate',
      args: { url: 'https://b.example/x' },
      destination: 'https://b.example',
    };
    expect(callInWords(navigate, en)).toBe('Demo wants to take the tab from shop.example to b.example');
    expect(callInWords(navigate, zh)).toBe('Demo 想將分頁從 shop.example 帶到 b.example');
    const connector = { agentName: 'Demo', origin: 'http://127.0.0.1:3000', tool: 'create_issue', args: {} };
    expect(callInWords(connector, en)).toBe('Demo wants to use create_issue on 127.0.0.1:3000');
    expect(callInWords(connector, zh)).toBe('Demo 想在 127.0.0.1:3000 上使用 create_issue');
  });
});
