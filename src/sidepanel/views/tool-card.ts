/**
 * A tool call as a compact, collapsible card: what runs, its state in words, then (on opening)
 * arguments, results, diffs and locations. Everything an agent sent is shown as text, never as HTML.
 */
import type { MediaView, ToolCallView, ToolContentView } from '../chat-types';
import { h } from '../dom';
import { t } from '../i18n';
import { openableHref } from '../markdown/sanitize';
import { icon } from './icons';

const STATUS = {
  pending: () => t('toolPending'),
  in_progress: () => t('toolRunning'),
  completed: () => t('toolDone'),
  failed: () => t('toolFailed'),
} as const;

/** ACP's tool kinds in words; a kind from a newer ACP is shown as sent. */
const KIND: Record<string, () => string> = {
  read: () => t('toolKindRead'),
  edit: () => t('toolKindEdit'),
  delete: () => t('toolKindDelete'),
  move: () => t('toolKindMove'),
  search: () => t('toolKindSearch'),
  execute: () => t('toolKindExecute'),
  think: () => t('toolKindThink'),
  fetch: () => t('toolKindFetch'),
  switch_mode: () => t('toolKindSwitchMode'),
};

const kindText = (kind: string) => (Object.hasOwn(KIND, kind) ? KIND[kind]!() : kind.replace('_', ' '));

export function toolStatusText(status: ToolCallView['status']): string {
  return (STATUS[status] ?? STATUS.pending)();
}

export function toolCard(call: ToolCallView, open = false): HTMLDetailsElement {
  const details = h(
    'details',
    { className: `card tool status-${call.status}`, 'data-tool-call': call.id },
    h(
      'summary',
      {},
      icon('tool'),
      h('span', { className: 'card-title' }, call.title),
      call.kind && call.kind !== 'other' ? h('span', { className: 'card-kind' }, kindText(call.kind)) : null,
      h('span', { className: `card-status status-${call.status}` }, toolStatusText(call.status)),
    ),
  );
  details.open = open;
  const body = h('div', { className: 'card-body' });
  if (call.locations.length) {
    body.append(
      h(
        'ul',
        { className: 'locations', 'aria-label': t('toolLocations') },
        ...call.locations.map((l) => h('li', {}, l.line !== undefined ? `${l.path}:${l.line}` : l.path)),
      ),
    );
  }
  if (call.input) body.append(labelled(t('toolArguments'), h('pre', {}, call.input)));
  for (const content of call.content) body.append(toolContent(content));
  if (call.output) body.append(labelled(t('toolRawResult'), h('pre', {}, call.output)));
  if (!body.childElementCount) body.append(h('p', { className: 'muted' }, t('toolNoDetails')));
  details.append(body);
  return details;
}

function labelled(label: string, content: HTMLElement): HTMLElement {
  return h('div', { className: 'card-part' }, h('p', { className: 'card-label' }, label), content);
}

export function toolContent(content: ToolContentView): HTMLElement {
  switch (content.type) {
    case 'text':
      return h('pre', { className: 'tool-output' }, content.text);
    case 'diff':
      return diffView(content.path, content.oldText, content.newText);
    case 'terminal':
      return h('p', { className: 'muted' }, t('toolTerminal', content.terminalId));
    case 'media':
      return mediaView(content.media, '');
  }
}

/** A unified line diff; very large inputs show the new text only rather than stall the panel. */
export function diffView(path: string, oldText: string | undefined, newText: string): HTMLElement {
  const lines = lineDiff(oldText ?? '', newText);
  const pre = h('pre', { className: 'diff' });
  for (const [mark, text] of lines) {
    pre.append(h('span', { className: mark === '+' ? 'add' : mark === '-' ? 'del' : 'same' }, `${mark} ${text}\n`));
  }
  return h('div', { className: 'card-part' }, h('p', { className: 'card-label' }, path), pre);
}

export function lineDiff(before: string, after: string): Array<['+' | '-' | ' ', string]> {
  const a = before ? before.split('\n') : [];
  const b = after.split('\n');
  if (a.length * b.length > 1_000_000) return b.map((line) => ['+', line]);
  // Longest common subsequence table, filled from the end so the walk below goes forwards.
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: Array<['+' | '-' | ' ', string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push([' ', a[i]!]);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push(['-', a[i++]!]);
    } else {
      out.push(['+', b[j++]!]);
    }
  }
  return out;
}

/** Images arrive as data (never fetched); links obey the same rule as links in markdown. */
export function mediaView(media: MediaView, agentName: string): HTMLElement {
  switch (media.type) {
    case 'image':
      return h(
        'figure',
        { className: 'media image' },
        h('img', { src: `data:${media.mimeType};base64,${media.data}`, alt: t('imageFrom', agentName || '?') }),
      );
    case 'audio':
      return h('p', { className: 'media muted' }, t('audioClip', String(Math.ceil(media.bytes / 1024))));
    case 'link': {
      const url = openableHref(media.uri);
      const label = media.name || media.uri;
      return h(
        'p',
        { className: 'media link' },
        url
          ? h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', title: url.href }, label)
          : h('span', { className: 'refused-link', title: media.uri }, label),
        media.description ? h('span', { className: 'muted' }, ` — ${media.description}`) : null,
      );
    }
    case 'resource':
      return h(
        'details',
        { className: 'card resource' },
        h(
          'summary',
          {},
          media.uri || t('resource'),
          media.mimeType ? h('span', { className: 'card-kind' }, media.mimeType) : null,
        ),
        media.text !== undefined ? h('pre', {}, media.text) : h('p', { className: 'muted' }, t('resourceBinary')),
      );
  }
}
