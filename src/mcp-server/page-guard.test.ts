import { describe, expect, it } from 'vitest';
import type { PageCommand } from '../page/protocol';
import type { FrameInfo, PageTransport, SendOptions } from './browser-port';
import { decidingUrl, isRefusal, PageGuard, PageRefusal, REFUSED_DOCUMENT, REFUSED_REPLY } from './page-guard';

const ALLOWED = 'http://127.0.0.1:8000';
const decide = async (url: string) => (url.startsWith(ALLOWED) ? undefined : `Refused: ${url} is not an allowed site.`);

/** A transport over a scripted frame tree; `replyUrl` is where the page says it answered from. */
function transport(frames: FrameInfo[], replyUrl?: (frameId: number) => string) {
  const sent: Array<{ command: PageCommand; options: SendOptions }> = [];
  const port: PageTransport = {
    async send(_tabId, command, options) {
      sent.push({ command, options });
      const frame = frames.find((f) => f.frameId === options.frameId)!;
      return {
        value: { text: 'page' } as never,
        url: replyUrl?.(options.frameId) ?? frame.url,
        documentId: 'agent-doc',
      };
    },
    async frames() {
      return frames;
    },
  };
  return { port, sent };
}

const TOP: FrameInfo = { frameId: 0, parentFrameId: -1, url: `${ALLOWED}/a`, documentId: 'D0' };
const READ = { op: 'getText', maxChars: 10 } as const;

describe('PageGuard', () => {
  it('pins a command to the document whose URL it checked', async () => {
    const { port, sent } = transport([TOP]);
    await new PageGuard(port, decide).run(1, READ);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.options).toMatchObject({ frameId: 0, documentId: 'D0' });
  });

  it('holds every command until the call is ready, and sends nothing to a refused document meanwhile', async () => {
    const { port, sent } = transport([TOP]);
    let ready!: () => void;
    const guard = new PageGuard(port, decide, new Promise<void>((resolve) => (ready = resolve)));
    const pending = guard.run(1, READ);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toHaveLength(0);
    expect(await guard.frames(1)).toEqual([TOP]);
    ready();
    await pending;
    expect(sent).toHaveLength(1);
  });

  it('sends nothing to a document the gates refuse', async () => {
    const { port, sent } = transport([{ ...TOP, url: 'http://localhost:8000/secret' }]);
    const error = await new PageGuard(port, decide).run(1, READ).catch((e: unknown) => e);
    expect(isRefusal(error)).toBe(true);
    expect((error as { code: string }).code).toBe(REFUSED_DOCUMENT);
    expect(String(error)).toMatch(/not an allowed site/);
    expect(sent).toHaveLength(0);
  });

  it('withholds a reply produced after the document moved to a refused URL (a route change)', async () => {
    const { port } = transport([TOP], () => `${ALLOWED.replace('127.0.0.1', 'localhost')}/moved`);
    const error = await new PageGuard(port, decide).run(1, READ).catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe(REFUSED_REPLY);
    expect(error).toMatchObject({ url: 'http://localhost:8000/moved', refusal: expect.stringMatching(/^Refused: /) });
  });

  it('answers with the URL the reply was judged by, and a refusal names the URL it refused', async () => {
    const { port } = transport([TOP], () => `${ALLOWED}/routed`);
    expect(await new PageGuard(port, decide).answer(1, READ)).toMatchObject({ url: `${ALLOWED}/routed` });
    const refused = transport([{ ...TOP, url: 'http://localhost:8000/secret' }]);
    const error = await new PageGuard(refused.port, decide).answer(1, READ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageRefusal);
    expect(error).toMatchObject({ url: 'http://localhost:8000/secret', code: REFUSED_DOCUMENT });
  });

  it('judges about:blank and srcdoc frames by their nearest ancestor with a real URL', async () => {
    const other: FrameInfo = { frameId: 3, parentFrameId: 0, url: 'http://localhost:8000/frame', documentId: 'D3' };
    const blankInOther: FrameInfo = { frameId: 4, parentFrameId: 3, url: 'about:blank', documentId: 'D4' };
    const blankInTop: FrameInfo = { frameId: 5, parentFrameId: 0, url: 'about:srcdoc', documentId: 'D5' };
    const frames = [TOP, other, blankInOther, blankInTop];
    expect(decidingUrl(blankInOther, frames)).toBe(other.url);
    expect(decidingUrl(blankInTop, frames)).toBe(TOP.url);
    const { port, sent } = transport(frames);
    const guard = new PageGuard(port, decide);
    expect((await guard.readableFrames(1)).map((f) => f.frameId)).toEqual([5]);
    await expect(guard.run(1, { op: 'click', target: { ref: 'f4e1' } } as never)).rejects.toThrow(/may not read/);
    await guard.run(1, { op: 'click', target: { ref: 'f5e1' } } as never);
    expect(sent.map((s) => s.options.frameId)).toEqual([5]);
  });

  it('says when the frame a ref names is gone, and asks the decision once per URL', async () => {
    let asked = 0;
    const { port } = transport([TOP]);
    const guard = new PageGuard(port, async (url) => (asked++, decide(url)));
    await expect(guard.run(1, { op: 'click', target: { ref: 'f9e1' } } as never)).rejects.toThrow(/frame went away/);
    await guard.run(1, READ);
    await guard.run(1, READ);
    expect(asked).toBe(1);
  });
});
