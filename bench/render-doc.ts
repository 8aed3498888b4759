/**
 * The long reply the render benchmark streams: about 200 KB of the markdown agents write —
 * headings, paragraphs with inline code and links, nested lists, fenced code in several
 * languages, tables and quotes — generated deterministically so every run renders the same text.
 */

const WORDS = (
  'the panel reads each block once while the reply streams and only the open tail is parsed again ' +
  'so a long answer costs about as much as rendering it at the end agents write prose code and tables'
).split(' ');

function sentence(seed: number, length: number): string {
  const words = Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

function paragraph(seed: number): string {
  return [
    sentence(seed, 14),
    `It calls \`renderBlock(${seed})\` and keeps [the notes](https://example.com/notes/${seed}) close.`,
    sentence(seed + 1, 18),
  ].join(' ');
}

const CODE: Record<string, (seed: number) => string[]> = {
  ts: (seed) => [
    `export function step${seed}(input: readonly number[]): number {`,
    '  let total = 0;',
    '  for (const value of input) {',
    `    if (value > ${seed}) total += value * 2; // weigh the large ones`,
    '    else total -= value;',
    '  }',
    `  return Math.max(total, ${seed});`,
    '}',
    '',
    `const cache = new Map<string, number>([['a', ${seed}], ['b', ${seed + 1}]]);`,
    "console.log(step1([1, 2, 3]), cache.get('a'));",
  ],
  python: (seed) => [
    `def summarise_${seed}(rows):`,
    '    """Group rows by owner and count them."""',
    '    counts = {}',
    '    for row in rows:',
    "        owner = row.get('owner', 'nobody')",
    '        counts[owner] = counts.get(owner, 0) + 1',
    `    return sorted(counts.items(), key=lambda item: -item[1])[:${(seed % 9) + 1}]`,
  ],
  json: (seed) => [
    '{',
    `  "id": ${seed},`,
    `  "title": "Ticket ${seed}",`,
    '  "labels": ["ui", "render", "stream"],',
    `  "estimate": { "hours": ${seed % 12}, "confidence": 0.8 },`,
    '  "done": false',
    '}',
  ],
  bash: (seed) => [
    `for file in build/*.js; do`,
    '  size=$(wc -c < "$file")',
    `  echo "$file: $size bytes" | tee -a sizes-${seed}.log`,
    'done',
    `grep -c error build.log || echo "no errors in run ${seed}"`,
  ],
};

function codeBlock(seed: number): string {
  const languages = Object.keys(CODE);
  const language = languages[seed % languages.length]!;
  const lines = CODE[language]!(seed);
  const repeats = 1 + (seed % 3);
  return ['```' + language, ...Array.from({ length: repeats }, () => lines).flat(), '```'].join('\n');
}

function table(seed: number): string {
  const rows = 6 + (seed % 7);
  const header = '| Task | Owner | Status | Hours |\n|:-----|:-----:|:------:|------:|';
  const body = Array.from(
    { length: rows },
    (_, i) =>
      `| ${sentence(seed + i, 4).slice(0, -1)} | user${(seed + i) % 9} | ${i % 3 ? 'open' : '**done**'} | ${(seed * i) % 40} |`,
  );
  return [header, ...body].join('\n');
}

function list(seed: number): string {
  return [
    `1. ${sentence(seed, 8)}`,
    `2. ${sentence(seed + 2, 10)}`,
    `   - nested \`item_${seed}\` with detail`,
    `   - ${sentence(seed + 3, 6)}`,
    `3. ${sentence(seed + 4, 7)}`,
  ].join('\n');
}

/** About `targetBytes` of markdown; the same text for the same target. */
export function benchmarkReply(targetBytes = 200 * 1024): string {
  const parts: string[] = ['# Findings across the repository', ''];
  for (let seed = 1; parts.join('\n').length < targetBytes; seed++) {
    parts.push(`## Section ${seed}: ${sentence(seed, 5).slice(0, -1)}`, '');
    parts.push(paragraph(seed), '');
    if (seed % 2 === 0) parts.push(list(seed), '');
    parts.push(codeBlock(seed), '');
    if (seed % 3 === 0) parts.push(table(seed), '');
    if (seed % 5 === 0) parts.push(`> ${sentence(seed, 16)}\n> ${sentence(seed + 1, 9)}`, '');
    parts.push(paragraph(seed + 100), '');
  }
  return parts.join('\n');
}

/** Every marker starts so; nothing else in the reply does. */
export const MARKER_PREFIX = 'zq';
/** A marker's ordinal: base 36, three digits (46,656 chunks at most). */
const ORDINAL_DIGITS = 3;
/**
 * A word that shows as itself wherever it is: after a space, bracket or quote (not a backtick,
 * which would make it a fence's language), and not followed by what makes it part of a name or URL.
 */
const MARKABLE_WORD = /(?<=[ \n"'[(])[a-z]{5,}(?![\w:])/g;

/**
 * `text` with one word in each of the `count` pieces the peer splits it into (equal lengths,
 * as `splitInto`) overwritten by a marker naming the piece, `zq` and its ordinal in base 36,
 * padded with the word's own last letters: the same length and markdown structure, so the
 * reply renders as before, and each piece's text can be found in the DOM. Pieces without such a
 * word stay unmarked; `marked` counts the others.
 */
export function markChunks(text: string, count: number): { text: string; marked: number } {
  const size = Math.max(1, Math.ceil(text.length / count));
  let out = '';
  let marked = 0;
  for (let at = 0, ordinal = 0; at < text.length; at += size, ordinal++) {
    const piece = text.slice(at, at + size);
    // A lookbehind sees the text before the piece too: the piece's first word counts when the one
    // before it ends where the piece starts.
    MARKABLE_WORD.lastIndex = 0;
    const context = text.slice(Math.max(0, at - 1), at + size);
    const offset = at > 0 ? 1 : 0;
    let word: RegExpExecArray | null;
    let chosen: RegExpExecArray | undefined;
    while ((word = MARKABLE_WORD.exec(context)) && !chosen) {
      const end = word.index + word[0].length;
      // Whole inside the piece, so one socket message carries the whole marker.
      if (word.index >= offset && (end < context.length || at + size >= text.length)) chosen = word;
    }
    if (!chosen) {
      out += piece;
      continue;
    }
    const start = chosen.index - offset;
    const marker = MARKER_PREFIX + ordinal.toString(36).padStart(ORDINAL_DIGITS, '0');
    const replaced = marker + chosen[0].slice(marker.length);
    out += piece.slice(0, start) + replaced + piece.slice(start + replaced.length);
    marked++;
  }
  return { text: out, marked };
}

/** The chunk ordinals named by markers in `text`. */
export const MARKER_PATTERN_SOURCE = `${MARKER_PREFIX}([0-9a-z]{${ORDINAL_DIGITS}})`;
