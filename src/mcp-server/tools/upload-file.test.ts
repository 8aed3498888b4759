import { describe, expect, it } from 'vitest';
import { gatedServer, textOf } from './gated-server-fixture';
import { UPLOAD_CAP_BYTES, uploadFile } from './upload-file';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
const SECRET = 'quarterly numbers: do not share';
const FILE = { name: 'q3.txt', mimeType: 'text/plain', contentBase64: b64(SECRET) };

describe('upload_file arguments', () => {
  const problem = (files: unknown) => {
    const parsed = uploadFile.input.safeParse({ ref: 'e1', files });
    return parsed.success ? undefined : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };

  it('takes files with a name, an optional type and base64 contents', () => {
    expect(problem([FILE, { name: 'empty.bin', contentBase64: '' }])).toBeUndefined();
    expect(problem([{ name: 'unpadded.txt', contentBase64: 'aGk' }])).toBeUndefined();
  });

  it('refuses an empty list, bad base64, paths and dot names', () => {
    expect(problem([])).toMatch(/^files: give at least one file/);
    expect(problem([{ name: 'a.txt', contentBase64: 'aGk=\n' }])).toMatch(
      /files\.0\.contentBase64: is not valid base64/,
    );
    expect(problem([{ name: 'a.txt', contentBase64: 'not base64!' }])).toMatch(/is not valid base64/);
    expect(problem([{ ...FILE, name: 'reports/q3.txt' }])).toMatch(/files\.0\.name: is a path/);
    expect(problem([{ ...FILE, name: 'C:\\q3.txt' }])).toMatch(/files\.0\.name: is a path/);
    expect(problem([{ ...FILE, name: '..' }])).toMatch(/is not a file name/);
    expect(problem([{ ...FILE, name: '' }])).toBeDefined();
  });

  it('caps the decoded total per call at 700 KiB, naming the cap', () => {
    const half = { name: 'half.bin', contentBase64: b64(Buffer.alloc(UPLOAD_CAP_BYTES / 2)) };
    expect(problem([half, half])).toBeUndefined();
    expect(problem([half, half, { name: 'one.bin', contentBase64: b64('x') }])).toMatch(
      /^files: hold 700\.0 KiB of file data, over the 700 KiB cap per call/,
    );
    // The largest call the cap allows still fits the tunnel's 1 MiB method frame.
    const largest = JSON.stringify({ name: 'tabwright.upload_file', arguments: { ref: 'e1', files: [half, half] } });
    expect(Buffer.byteLength(largest)).toBeLessThan(1024 * 1024 - 512);
  });
});

describe('upload_file through the gates', () => {
  it('is a write: refused without act mode or on a site that is not allowed, and nothing reaches the page', async () => {
    for (const options of [{ act: false }, { allowed: false }]) {
      const { call, browser, audit } = gatedServer(options);
      const result = await call('upload_file', { ref: 'e1', files: [FILE] });
      expect(result.isError).toBe(true);
      expect(browser.effects).toEqual([]);
      expect(audit[0]!.outcome).toMatch(/^refused:(act-mode|origin)$/);
    }
  });

  it('asks first, showing names and sizes but never the contents, and audits the same', async () => {
    const { call, sent, audit, asked } = gatedServer();
    const result = await call('upload_file', { ref: 'e1', files: [FILE] });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked).toHaveLength(1);
    const card = JSON.stringify(asked[0]);
    expect(card).toContain('q3.txt');
    expect(card).toContain('(31 B, contents not shown)');
    expect(asked[0]!.targets).toEqual([{ target: 'e1', element: { role: 'textbox', name: 'e1' } }]);
    const logged = JSON.stringify(audit);
    expect(audit.map((entry) => entry.outcome)).toEqual(['ok']);
    for (const text of [card, logged]) {
      expect(text).not.toContain(FILE.contentBase64);
      expect(text).not.toContain(SECRET);
    }
    // The page gets the files themselves, in the frame the ref belongs to.
    const upload = sent.find((entry) => entry.command.op === 'upload')!;
    expect(upload.frameId).toBe(0);
    expect(upload.command).toMatchObject({ op: 'upload', target: { ref: 'e1' }, files: [FILE] });
  });

  it('keeps contents out of the audit log for refused arguments too', async () => {
    const { call, audit, asked, browser } = gatedServer();
    const big = { name: 'big.bin', contentBase64: b64(Buffer.alloc(UPLOAD_CAP_BYTES + 1, 65)) };
    const result = await call('upload_file', { ref: 'e1', files: [FILE, big] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('700 KiB cap');
    expect(asked).toEqual([]);
    expect(browser.commands).toEqual([]);
    expect(audit[0]!.outcome).toBe('refused:arguments');
    const logged = JSON.stringify(audit[0]!.args);
    expect(logged).toContain('(717 kB, contents not shown)');
    expect(logged).not.toContain(FILE.contentBase64);
    expect(logged).not.toContain('QUFBQUFB');
  });

  it('takes how to answer a dialog the upload opens, shown on the card', async () => {
    const { call, asked } = gatedServer();
    await call('upload_file', { ref: 'e1', files: [FILE], dialog: { accept: false } });
    expect(asked[0]!.args).toMatchObject({ dialog: { accept: false } });
  });

  it('sends a ref made in a child frame to that frame', async () => {
    const { call, browser, sent } = gatedServer();
    browser.frameList.push(
      { frameId: 0, parentFrameId: -1, url: 'https://app.example/work', documentId: 'doc-1' },
      { frameId: 7, parentFrameId: 0, url: 'https://app.example/frame', documentId: 'doc-7' },
    );
    await call('upload_file', { ref: 'f7e3', files: [FILE] });
    expect(sent.find((entry) => entry.command.op === 'upload')?.frameId).toBe(7);
  });

  it('refuses a ref in a child frame from a site that is not allowed, sending nothing there', async () => {
    const { call, browser, sent } = gatedServer();
    browser.frameList.push(
      { frameId: 0, parentFrameId: -1, url: 'https://app.example/work', documentId: 'doc-1' },
      { frameId: 9, parentFrameId: 0, url: 'https://elsewhere.example/drop', documentId: 'doc-9' },
    );
    const result = await call('upload_file', { ref: 'f9e1', files: [FILE] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/may not read/);
    expect(sent.filter((entry) => entry.frameId === 9)).toEqual([]);
  });
});
