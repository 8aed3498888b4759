/**
 * upload_file and drag through the built extension, on pages built from the real libraries
 * (react-dropzone, FilePond, SortableJS, @dnd-kit/sortable) and on native controls: files land
 * where the page reads them, lists reorder as their own APIs report, bad input changes nothing,
 * and a drop zone inside a frame from a site that is not allowed is never reached.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle, refIn, serveFile, startActionRig, textOf, type ActionRig } from './actions-rig';
import { ROOT } from './harness';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const CV = { name: 'cv.txt', mimeType: 'text/plain', contentBase64: b64('twelve bytes') };

describe('hands: uploads and drags', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    const bundle = await buildFixtureBundle('test/fixtures/hands/app/main.ts', 'hands-app');
    const css = join(ROOT, 'node_modules/filepond/dist/filepond.min.css');
    rig = await startActionRig({
      routes: [serveFile('/hands/app.js', bundle), serveFile('/hands/filepond.css', css, 'text/css; charset=utf-8')],
    });
  });
  afterAll(async () => rig?.close());

  describe('upload_file', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/hands/uploads.html');
      await page.locator('#dropzone').waitFor();
      await page.locator('.filepond--root').waitFor();
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('chooses a file in a labelled native input: the page reads it, the snapshot names it, the card and the audit log do not show its contents', async () => {
      const card = rig.panel.getByRole('alertdialog').first();
      const cardText = card
        .waitFor({ timeout: 30_000 })
        .then(() => card.getByText('Arguments', { exact: true }).click())
        .then(() => card.innerText());
      const secret = 'TOP-SECRET-CONTENTS';
      const file = { name: 'cv.txt', mimeType: 'text/plain', contentBase64: b64(secret) };
      const result = await rig.call('upload_file', { ref: refIn(snapshot, /button "Résumé"/), files: [file] });
      expect(result.isError, textOf(result)).toBeFalsy();
      const text = textOf(result);
      expect(text).toContain('Chose cv.txt (19 B) in <input type=file> "Résumé"');
      expect(text).toMatch(/button "Résumé" \[e\d+\] \[value="cv\.txt \(19 B\)"\]/);
      expect(await page.locator('#resume-read').textContent()).toBe(secret);
      expect(await page.evaluate(() => (window as unknown as { changes: { resume: number } }).changes.resume)).toBe(1);

      const shown = await cardText;
      expect(shown).toContain('cv.txt');
      expect(shown).toContain('19 B, contents not shown');
      expect(shown).not.toContain(file.contentBase64);
      const audit = JSON.stringify(await rig.panel.evaluate(() => chrome.storage.local.get('audit')));
      expect(audit).toContain('upload_file');
      expect(audit).not.toContain(file.contentBase64);
      expect(audit).not.toContain(secret);
    });

    it('fills the hidden input a "Browse" button opens with input.click(), without opening a picker', async () => {
      const files = [
        { name: 'beach.png', mimeType: 'image/png', contentBase64: b64(Buffer.alloc(2_048, 1)) },
        { name: 'hills.jpg', mimeType: 'image/jpeg', contentBase64: b64(Buffer.alloc(300, 2)) },
      ];
      const result = await rig.call('upload_file', { ref: refIn(snapshot, /button "Browse photos…"/), files });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toContain('beach.png (2.0 kB), hills.jpg (300 B)');
      expect(await page.locator('#photo-list li').allTextContents(), textOf(result)).toEqual([
        'beach.png (image/png, 2048 bytes)',
        'hills.jpg (image/jpeg, 300 bytes)',
      ]);
      expect(textOf(result)).toContain('beach.png (image/png, 2048 bytes)');
    });

    it('drops files onto a react-dropzone zone, which reads them from the drop', async () => {
      // react-dropzone's root is a plain div (role=presentation): it has no ref, so a selector names it.
      const zone = '#dropzone';
      const files = [
        { name: 'q1.csv', mimeType: 'text/csv', contentBase64: b64('a,b\n1,2\n') },
        { name: 'q2.csv', mimeType: 'text/csv', contentBase64: b64('a,b\n3,4\n') },
      ];
      const result = await rig.call('upload_file', { selector: zone, files });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toContain('Dropped q1.csv (8 B), q2.csv (8 B) onto');
      await expect
        .poll(() => page.evaluate(() => window.dropzoneFiles?.map((file) => `${file.name}|${file.type}|${file.text}`)))
        .toEqual(['q1.csv|text/csv|a,b\n1,2\n', 'q2.csv|text/csv|a,b\n3,4\n']);
      expect(textOf(result)).toContain('q1.csv: 8 bytes');
    });

    it('adds files to FilePond through its "Browse" label', async () => {
      const browse = refIn(snapshot, /Drag & Drop your files or Browse/);
      const files = [
        { name: 'notes.md', mimeType: 'text/markdown', contentBase64: b64('# Notes\n') },
        { name: 'data.json', mimeType: 'application/json', contentBase64: b64('{"a":1}') },
      ];
      const result = await rig.call('upload_file', { ref: browse, files });
      expect(result.isError, textOf(result)).toBeFalsy();
      await expect
        .poll(() => page.evaluate(() => window.pond!.getFiles().map((item) => `${item.filename}:${item.fileSize}`)))
        .toEqual(['notes.md:8', 'data.json:7']);
    });

    describe('refuses, with nothing set', () => {
      const resumeState = () =>
        page.evaluate(() => ({
          files: (document.getElementById('resume') as HTMLInputElement).files!.length,
          changes: (window as unknown as { changes: { resume: number } }).changes.resume,
        }));

      it('over the 700 KiB cap per call', async () => {
        const before = await resumeState();
        const big = { name: 'big.bin', contentBase64: b64(Buffer.alloc(710 * 1024, 3)) };
        const result = await rig.call('upload_file', { selector: '#resume', files: [big] });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/710\.0 KiB of file data, over the 700 KiB cap per call/);
        expect(await resumeState()).toEqual(before);
      });

      it('bad base64, an empty file list, a path for a name', async () => {
        const before = await resumeState();
        const cases: Array<[unknown[], RegExp]> = [
          [[{ name: 'a.txt', contentBase64: 'not base64!' }], /contentBase64: is not valid base64/],
          [[], /files: give at least one file/],
          [[{ ...CV, name: '../etc/passwd' }], /name: is a path: give a file name without \/ or \\/],
          [[{ ...CV, name: 'C:\\temp\\cv.txt' }], /name: is a path/],
        ];
        for (const [files, message] of cases) {
          const result = await rig.call('upload_file', { selector: '#resume', files });
          expect(result.isError, JSON.stringify(files)).toBe(true);
          expect(textOf(result)).toMatch(message);
          expect(textOf(result)).toContain('Nothing was done');
        }
        expect(await resumeState()).toEqual(before);
      });

      it('two files into an input without `multiple`', async () => {
        const before = await resumeState();
        const result = await rig.call('upload_file', { selector: '#resume', files: [CV, { ...CV, name: 'b.txt' }] });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(
          /takes one file \(it has no `multiple`\), and 2 were given, so nothing was chosen/,
        );
        expect(await resumeState()).toEqual(before);
      });

      it('a control that opens showOpenFilePicker, and one that opens nothing', async () => {
        const system = await rig.call('upload_file', { selector: '#system', files: [CV] });
        expect(system.isError, textOf(system)).toBe(true);
        expect(textOf(system)).toMatch(/showOpenFilePicker.*nothing was chosen/);
        const plain = await rig.call('upload_file', { selector: '#plain', files: [CV] });
        expect(plain.isError).toBe(true);
        expect(textOf(plain)).toMatch(/not a file input, a label of one or a drop zone/);
      });
    });
  });

  describe('drag', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/hands/drag.html');
      await page.locator('.kit-item').first().waitFor();
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('reorders a SortableJS list (toArray)', async () => {
      // Sortable's items are plain list items until pressed: selectors name them.
      const result = await rig.call('drag', {
        selector: '#sortable [data-id=apple]',
        toSelector: '#sortable [data-id=cherry]',
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toMatch(/Dragged <li> "Apple" onto <li> "Cherry" \(drag and drop\)/);
      expect(await page.evaluate(() => window.sortable!.toArray())).toEqual(['banana', 'cherry', 'apple', 'damson']);
    });

    it('reorders a dnd-kit sortable list, its pointer sensor needing 8 px of travel', async () => {
      const result = await rig.call('drag', {
        ref: refIn(snapshot, /"Alpha"/),
        toRef: refIn(snapshot, /"Charlie"/),
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toMatch(/with the mouse button held/);
      await expect.poll(() => page.evaluate(() => window.kitOrder)).toEqual(['Bravo', 'Charlie', 'Alpha', 'Delta']);
    });

    it('moves an HTML5 draggable card to a column that accepts it, and says when a column takes no drop', async () => {
      const card = refIn(snapshot, /generic "Write report" \[e\d+\] \[draggable\]/);
      const refused = await rig.call('drag', { ref: card, toSelector: '#locked' });
      expect(refused.isError, textOf(refused)).toBeFalsy();
      expect(textOf(refused)).toMatch(/but the page did not take the drop there/);
      expect(await page.evaluate(() => (window as unknown as { dragEvents: string[] }).dragEvents)).toEqual([
        'dragstart',
        'dragend:none',
      ]);
      const moved = await rig.call('drag', { ref: card, toSelector: '#done' });
      expect(moved.isError, textOf(moved)).toBeFalsy();
      expect(textOf(moved)).toMatch(/\(drag and drop\)/);
      expect(await page.locator('#done #card').count()).toBe(1);
      // A DataTransfer made by a script keeps dropEffect "none" in Chromium, so dragend cannot report the move.
      expect(await page.evaluate(() => (window as unknown as { dragEvents: string[] }).dragEvents)).toEqual([
        'dragstart',
        'dragend:none',
        'dragstart',
        'drop:card',
        'dragend:none',
      ]);
    });

    it('asks where to drop', async () => {
      const result = await rig.call('drag', { selector: '#card' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/pass `toRef`/);
    });
  });

  describe('a drop zone in a frame from a site that is not allowed', () => {
    let page: Page;

    async function otherFrameId(): Promise<number> {
      return rig.launched.worker.evaluate(async (other) => {
        const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
        const frames = (await chrome.webNavigation.getAllFrames({ tabId: active!.id! })) ?? [];
        return frames.find((frame) => frame.url.startsWith(other))?.frameId ?? -1;
      }, rig.fixtures.other);
    }
    const dropped = () =>
      page
        .frameLocator('#frame')
        .locator('body')
        .evaluate(() => (window as unknown as { dropped: string[] }).dropped);

    beforeAll(async () => {
      page = await rig.open(`/hands/framed-upload.html?other=${encodeURIComponent(rig.fixtures.other)}`);
      await page.frameLocator('#frame').getByText('FRAME-DROP-ZONE').waitFor();
    });

    it('is refused by ref, and a drop on the frame element from the page around it does not reach it', async () => {
      const frameId = await otherFrameId();
      expect(frameId).toBeGreaterThan(0);
      for (const ref of [`f${frameId}e1`, `f${frameId}e2`]) {
        const result = await rig.call('upload_file', { ref, files: [CV] });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/may not read|not an allowed site/);
        expect(textOf(result)).not.toContain('FRAME-DROP-ZONE');
      }
      const onFrame = await rig.call('upload_file', { selector: '#frame', files: [CV] });
      expect(onFrame.isError).toBe(true);
      expect(textOf(onFrame)).not.toContain('FRAME-DROP-ZONE');
      const drag = await rig.call('drag', { ref: `f${frameId}e1`, toRef: `f${frameId}e2` });
      expect(drag.isError).toBe(true);
      expect(textOf(drag)).toMatch(/may not read|not an allowed site/);
      expect(await dropped()).toEqual([]);
    });
  });
});
