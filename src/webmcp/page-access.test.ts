import { describe, expect, it } from 'vitest';
import { FakePageTools } from './fake-page-tools';
import { PageToolsAccess } from './page-access';

const ORIGIN = 'https://notes.example';
const tab = { id: 7, windowId: 1, url: `${ORIGIN}/`, title: 'Notes', active: true, loading: false };

function setup(documentUrl = `${ORIGIN}/`, answersFrom?: string) {
  const transport = new FakePageTools([
    {
      tab,
      document: { url: documentUrl, documentId: 'doc-1' },
      tools: [{ name: 'list' }],
      ...(answersFrom ? { answersFrom } : {}),
      run: () => JSON.stringify('SECRET ANSWER'),
    },
  ]);
  const refused = new Set([`${ORIGIN}/payroll`]);
  const access = new PageToolsAccess({
    transport,
    decide: async (url) => (refused.has(url) ? 'Refused: blocked.' : undefined),
  });
  return { transport, access };
}

describe('PageToolsAccess', () => {
  it('reads and runs in the very document it checked', async () => {
    const { transport, access } = setup();
    expect((await access.list(7, ORIGIN)).tools).toEqual([{ name: 'list' }]);
    expect((await access.run(7, ORIGIN, 'list', { a: 1 })).raw).toBe('"SECRET ANSWER"');
    expect(transport.sent.map((sent) => sent.documentId)).toEqual(['doc-1', 'doc-1']);
  });

  it('sends nothing to a document the gates refuse or that is on another origin', async () => {
    for (const url of [`${ORIGIN}/payroll`, 'https://other.example/']) {
      const { transport, access } = setup(url);
      await expect(access.list(7, ORIGIN)).rejects.toMatchObject({ code: 'refused' });
      await expect(access.run(7, ORIGIN, 'list', {})).rejects.toMatchObject({ code: 'refused' });
      expect(transport.sent).toEqual([]);
    }
  });

  it('withholds an answer made after the page moved somewhere refused', async () => {
    const { access } = setup(`${ORIGIN}/`, `${ORIGIN}/payroll`);
    const failure = await access.run(7, ORIGIN, 'list', {}).catch((error: Error) => error);
    expect(failure).toMatchObject({ code: 'moved-refused' });
    expect(String((failure as Error).message)).not.toContain('SECRET');
  });

  it('withholds an answer when Chrome reports another document, or a refused URL, once it came', async () => {
    for (const after of [
      { url: `${ORIGIN}/`, documentId: 'doc-2' },
      { url: `${ORIGIN}/payroll`, documentId: 'doc-1' },
    ]) {
      const { transport, access } = setup();
      transport.tabs[0]!.after = after;
      const failure = await access.run(7, ORIGIN, 'list', {}).catch((error: Error) => error);
      expect(failure).toMatchObject({ code: 'moved-refused' });
      expect(String((failure as Error).message)).not.toContain('SECRET');
    }
  });

  it('says so when the tab is gone', async () => {
    const { access } = setup();
    await expect(access.list(99, ORIGIN)).rejects.toMatchObject({ code: 'tab-gone' });
  });
});
