// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { md } from './engine';
import { StreamingMarkdown } from './stream';

const reply = readFileSync(resolve(import.meta.dirname, '../../../test/fixtures/markdown/reply.md'), 'utf8');

/** Deterministic chunk sizes from a seed, like a model's uneven deltas. */
function chunks(text: string, seed: number, max = 24): string[] {
  const out: string[] = [];
  let state = seed;
  for (let at = 0; at < text.length;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % max);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

/** The formatted part of what a renderer shows, without the text still waiting to be formatted. */
function formatted(stream: StreamingMarkdown): string {
  const shown = stream.element.cloneNode(true) as HTMLElement;
  shown.querySelector(':scope > .md-pending')?.remove();
  return shown.textContent ?? '';
}

/** The text shown as it is, waiting for formatting; empty when there is none. */
const waiting = (stream: StreamingMarkdown) => stream.element.querySelector(':scope > .md-pending')?.textContent ?? '';

function renderedOnce(text: string, final: boolean): string {
  const whole = new StreamingMarkdown();
  whole.append(text);
  // No time limit: the reference is the whole text rendered in one go.
  whole.flush(final, Infinity);
  return whole.element.innerHTML;
}

const DOCS: Record<string, string> = {
  reply,
  'fence closing late': 'Intro\n\n```js\nconst a = 1;\nconst b = 2;\n```\nafter the fence\n',
  'table after a paragraph': 'Intro line\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.',
  'heading then hashtag': 'foo\n#hashtag is not a heading\n\n# but this is\n',
  'list grows loose': '- a\n- b\n\n- c\n\nparagraph\n',
  'setext after paragraph': 'Title\n===\n\nText\n---\n',
  'long fence': '```\n' + Array.from({ length: 60 }, (_, i) => `line ${i} <tag>`).join('\n') + '\n```\n',
  'unclosed fence': 'Look:\n\n```python\nprint("never closed")\n',
  'reference used before definition': 'See [the docs][d] for more.\n\nMore text.\n\n[d]: https://example.com/d\n',
};

describe('StreamingMarkdown', () => {
  for (const [name, text] of Object.entries(DOCS)) {
    it(`ends identical to a single render: ${name}`, () => {
      const expected = renderedOnce(text, true);
      for (const seed of [1, 7, 42]) {
        const stream = new StreamingMarkdown();
        for (const piece of chunks(text, seed)) {
          stream.append(piece);
          stream.flush();
        }
        stream.flush(true);
        expect(stream.element.innerHTML).toBe(expected);
      }
    });
  }

  for (const [name, text] of Object.entries(DOCS)) {
    if (text.includes(']:')) continue;
    it(`shows the same as a fresh render of the prefix at every step: ${name}`, () => {
      const stream = new StreamingMarkdown();
      let prefix = '';
      // Character by character for short texts, so every boundary between two chunks is tried.
      for (const piece of text.length < 400 ? [...text] : chunks(text, 3, 40)) {
        prefix += piece;
        stream.append(piece);
        stream.flush();
        expect(stream.element.innerHTML).toBe(renderedOnce(prefix, false));
      }
    });
  }

  it('keeps final blocks: the same nodes stay in the document while the reply grows', () => {
    const stream = new StreamingMarkdown();
    stream.append('# Heading\n\nFirst paragraph.\n\nSecond');
    stream.flush();
    const heading = stream.element.querySelector('h1');
    const first = stream.element.querySelector('p');
    stream.append(' paragraph grows\n\n- and a list');
    stream.flush();
    stream.append(' item\n');
    stream.flush(true);
    expect(stream.element.querySelector('h1')).toBe(heading);
    expect(stream.element.querySelector('p')).toBe(first);
    expect(stream.element.querySelectorAll('p')[1]!.textContent).toBe('Second paragraph grows');
  });

  it('grows an open fence in place and highlights it once it closes', () => {
    const stream = new StreamingMarkdown();
    stream.append('```ts\nconst a = 1;\n');
    stream.flush();
    const code = stream.element.querySelector('code');
    expect(code?.querySelector('span')).toBeNull();
    stream.append('const b = 2;\n');
    stream.flush();
    expect(stream.element.querySelector('code')).toBe(code);
    expect(code?.textContent).toBe('const a = 1;\nconst b = 2;\n');
    stream.append('```\n');
    stream.flush();
    expect(stream.element.querySelector('code .hljs-keyword')?.textContent).toBe('const');
  });

  it('parses only the text after the final blocks', () => {
    const stream = new StreamingMarkdown();
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with some words.`);
    for (const paragraph of paragraphs) {
      stream.append(`${paragraph}\n\n`);
      stream.flush();
    }
    stream.flush(true);
    expect(stream.element.querySelectorAll('p')).toHaveLength(200);
    const chunks = [...stream.element.querySelectorAll(':scope > .md-chunk')];
    expect(chunks.map((chunk) => chunk.childElementCount)).toEqual([24, 24, 24, 24, 24, 24, 24, 24, 8]);
    expect(stream.element.innerHTML).toBe(renderedOnce(paragraphs.map((p) => `${p}\n\n`).join(''), true));
    expect(stream.element.querySelectorAll('p')[199]!.textContent).toBe('Paragraph 199 with some words.');
  });

  it('reset renders restored text as final', () => {
    const stream = new StreamingMarkdown();
    stream.reset('**restored**');
    expect(stream.element.innerHTML).toBe('<div class="md-chunk"><p><strong>restored</strong></p></div>');
    expect(stream.dirty).toBe(false);
  });

  it('shows the text plainly if rendering fails, and keeps it', () => {
    const render = vi.spyOn(md.renderer, 'render').mockImplementation(() => {
      throw new Error('renderer fault');
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const stream = new StreamingMarkdown();
      stream.append('**not bold** <b>raw</b>\n\nsecond');
      stream.flush();
      expect(stream.element.querySelector('p.plain-text')!.textContent).toBe('**not bold** <b>raw</b>\n\nsecond');
      expect(stream.dirty).toBe(false);
      expect(errors).toHaveBeenCalledOnce();
    } finally {
      render.mockRestore();
      errors.mockRestore();
    }
  });

  it('renders a burst a slice per flush, showing the rest as written below, and the finished text once ended', () => {
    const text = reply.repeat(12);
    const stream = new StreamingMarkdown();
    stream.append(text);
    stream.flush();
    expect(stream.dirty).toBe(true);
    expect(formatted(stream).length).toBeLessThan(text.length / 2);
    // Everything not formatted yet is on screen as written, and it is the end of the text.
    let rest = waiting(stream);
    expect(rest.length).toBeGreaterThan(text.length / 2);
    expect(text.endsWith(rest)).toBe(true);
    expect(stream.element.lastElementChild!.className).toBe('md-pending');
    stream.end();
    let flushes = 1;
    while (stream.dirty) {
      stream.flush();
      flushes++;
      const now = waiting(stream);
      if (stream.dirty) expect(now.length).toBeLessThan(rest.length);
      expect(text.endsWith(now)).toBe(true);
      rest = now;
    }
    expect(flushes).toBeGreaterThan(2);
    expect(stream.element.querySelector('.md-pending')).toBeNull();
    expect(stream.element.innerHTML).toBe(renderedOnce(text, true));
  });

  it('shows text arrived since the last flush as written when asked, unless the text has ended', () => {
    const stream = new StreamingMarkdown();
    stream.append('# Title\n\nFirst part.\n\n');
    stream.flush();
    stream.append('More **text** arriving\n');
    stream.showArrived();
    expect(waiting(stream)).toBe('More **text** arriving\n');
    expect(stream.element.querySelector('h1')).not.toBeNull();
    stream.flush();
    expect(waiting(stream)).toBe('');
    expect(stream.element.querySelector('strong')).not.toBeNull();

    const restored = new StreamingMarkdown();
    restored.append(reply);
    restored.end();
    restored.showArrived();
    expect(restored.element.childNodes.length).toBe(0);
  });

  it('shows text arriving faster than it formats in the flush after it arrives', () => {
    const text = reply.repeat(12);
    const stream = new StreamingMarkdown();
    let sent = '';
    for (const piece of chunks(text, 5, 4_000)) {
      sent += piece;
      stream.append(piece);
      stream.flush(false, 0);
      // Formatted and waiting text together are everything sent, whatever the formatter reached.
      expect(sent.endsWith(waiting(stream))).toBe(true);
      expect(sent.length - waiting(stream).length).toBeGreaterThan(0);
    }
    expect(waiting(stream).length).toBeGreaterThan(0);
    stream.end();
    while (stream.dirty) stream.flush(false, 0);
    expect(stream.element.innerHTML).toBe(renderedOnce(text, true));
  });
});

describe('StreamingMarkdown slices on a slow machine', () => {
  /** Every reading of the clock costs `ms`: each render looks that slow. */
  function slowClock(ms: number) {
    let clock = 0;
    return vi.spyOn(performance, 'now').mockImplementation(() => (clock += ms));
  }

  const table = (rows: number) =>
    '| n | square | note |\n|---|---:|---|\n' +
    Array.from({ length: rows }, (_, n) => `| ${n} | ${n * n} | row ${n} of a long table |`).join('\n') +
    '\n';

  it('keeps growing a block longer than a slice, never showing less than before', () => {
    const text = table(120);
    const expected = renderedOnce(text, true);
    const clock = slowClock(50);
    try {
      const stream = new StreamingMarkdown();
      stream.append(text);
      stream.end();
      let shown = 0;
      let flushes = 0;
      while (stream.dirty && flushes < 200) {
        stream.flush();
        flushes++;
        const rows = stream.element.querySelectorAll('tbody tr').length;
        if (stream.dirty) expect(rows).toBeGreaterThan(shown);
        shown = rows;
      }
      expect(stream.dirty).toBe(false);
      expect(flushes).toBeGreaterThan(2);
      expect(stream.element.innerHTML).toBe(expected);
    } finally {
      clock.mockRestore();
    }
  });

  it("sizes a new reply's first slice by the pace earlier replies rendered at", () => {
    const text = Array.from({ length: 300 }, (_, n) => `Paragraph ${n} of a restored reply.\n`).join('\n');
    const clock = slowClock(50);
    try {
      const earlier = new StreamingMarkdown();
      earlier.append(text);
      earlier.flush();
      const next = new StreamingMarkdown();
      next.append(text);
      next.flush();
      expect(next.dirty).toBe(true);
      expect(formatted(next).length).toBeLessThan(400);
    } finally {
      clock.mockRestore();
    }
  });
});
