import { describe, expect, it } from 'vitest';
import { ResponseBuilder } from './response';
import type { Snapshot } from './snapshot-service';

const page: Snapshot = {
  title: 'Files',
  url: 'https://app.example/files',
  lines: ['- button "Delete"'],
  documentId: 'd1',
};
const tab = { id: 1, windowId: 1, url: page.url, title: page.title, active: true, loading: false };

describe('ResponseBuilder over the size cap', () => {
  it('keeps an action’s own lines and gives up the page’s text, so the model learns the action ran', async () => {
    const response = new ResponseBuilder();
    await response.reportPage({ readPage: async () => page, tab, line: 'Clicked <button> "Delete"' });
    for (let i = 0; i < 3; i++) {
      response.text('The page opened a confirm dialog during the action; it was dismissed (Cancel). It said:');
      response.pageText('https://app.example', 'x'.repeat(2_000_000));
    }
    const result = response.build();
    expect(result.isError).toBeUndefined();
    const texts = result.content.map((block) => (block.type === 'text' ? block.text : ''));
    expect(texts[0]).toBe('Clicked <button> "Delete"');
    expect(texts.filter((text) => text.includes('characters of page text left out')).length).toBeGreaterThan(0);
    expect(new TextEncoder().encode(JSON.stringify(result)).length).toBeLessThan(4 * 1024 * 1024);
  });

  it('refuses a read over the cap as before, saying how to narrow it', () => {
    const response = new ResponseBuilder().pageText('https://app.example', 'x'.repeat(5_000_000));
    const result = response.build();
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/was not sent\. Narrow the request/) });
  });
});
