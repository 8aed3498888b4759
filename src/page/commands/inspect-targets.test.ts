// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { PageAgent } from '../agent';

describe('inspectTargets', () => {
  beforeEach(() => document.body.replaceChildren());

  it('names each target by the role and accessible name its snapshot line shows', async () => {
    document.body.innerHTML = `
      <h2>Danger zone</h2>
      <button aria-label="Delete project">🗑</button>
      <label>Notes <textarea></textarea></label>
      <div id="card" style="cursor:pointer">Open <b>report</b></div>
      <a href="/x">Report</a>`;
    const agent = new PageAgent(document);
    const snapshot = agent.handle({ op: 'snapshot', refBase: 1, frameId: 0 });
    const lines = ((await snapshot) as { ok: true; value: { lines: string[] } }).value.lines;
    const ref = lines.find((line) => line.includes('Delete project'))!.match(/\[(e\d+)\]/)![1]!;
    const reply = agent.handle({
      op: 'inspectTargets',
      targets: [{ ref }, { selector: 'textarea' }, { selector: '#card' }, { selector: 'h2' }],
    });
    expect(reply).toEqual({
      url: expect.any(String),
      documentId: expect.any(String),
      ok: true,
      value: {
        targets: [
          { found: true, secret: false, role: 'button', name: 'Delete project' },
          { found: true, secret: false, role: 'textbox', name: 'Notes' },
          { found: true, secret: false, role: 'generic', name: 'Open report' },
          { found: true, secret: false, role: 'heading', name: 'Danger zone' },
        ],
      },
    });
  });

  it('reports stale refs, unmatched and invalid selectors as not found, without failing the query', () => {
    document.body.innerHTML = '<button>Save</button>';
    const agent = new PageAgent(document);
    const reply = agent.handle({
      op: 'inspectTargets',
      targets: [{ ref: 'e404' }, { selector: '#nope' }, { selector: '[[' }, { selector: 'button' }],
    });
    expect(reply).toEqual({
      url: expect.any(String),
      documentId: expect.any(String),
      ok: true,
      value: {
        targets: [
          { found: false },
          { found: false },
          { found: false },
          { found: true, secret: false, role: 'button', name: 'Save' },
        ],
      },
    });
  });
});
