// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { lineDiff, mediaView, toolCard } from './tool-card';

describe('toolCard', () => {
  it('is a collapsed card with the title and state in words; details inside', () => {
    const card = toolCard({
      id: 't1',
      title: '<img src=x onerror=alert(1)>',
      kind: 'read',
      status: 'failed',
      content: [{ type: 'text', text: '<b>not bold</b>' }],
      locations: [{ path: 'a.ts', line: 3 }],
      input: '{"a":1}',
    });
    expect(card.open).toBe(false);
    expect(card.querySelector('summary')!.textContent).toBe('<img src=x onerror=alert(1)>readfailed');
    expect(card.querySelector('img, b')).toBeNull();
    expect(card.querySelector('.locations')!.textContent).toBe('a.ts:3');
    expect([...card.querySelectorAll('pre')].map((pre) => pre.textContent)).toEqual(['{"a":1}', '<b>not bold</b>']);
  });
});

describe('lineDiff', () => {
  it('marks removed, added and unchanged lines in order', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      [' ', 'a'],
      ['-', 'b'],
      ['+', 'B'],
      [' ', 'c'],
      ['+', 'd'],
    ]);
    expect(lineDiff('', 'new')).toEqual([['+', 'new']]);
  });
});

describe('mediaView', () => {
  it('shows images from data only and links only to http(s)', () => {
    const image = mediaView({ type: 'image', mimeType: 'image/png', data: 'AAAA' }, 'Demo');
    expect(image.querySelector('img')!.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(image.querySelector('img')!.getAttribute('alt')).toBe('Image from Demo');
    const link = mediaView({ type: 'link', uri: 'https://a.example/x', name: 'x' }, 'Demo');
    expect(link.querySelector('a')!.getAttribute('rel')).toBe('noopener noreferrer');
    const refused = mediaView({ type: 'link', uri: 'javascript:alert(1)', name: 'x' }, 'Demo');
    expect(refused.querySelector('a')).toBeNull();
  });
});
