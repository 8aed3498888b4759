import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { addAgentThroughForm, launchWithExtension, openPanelTab, ROOT, sendMessage, type Launched } from './harness';

const T = { timeout: 60_000 };

/** Installed in every page before its scripts run: anything that executes or is blocked is recorded. */
const TRIPWIRE = `(() => {
  window.__tripwire = true;
  window.__violations = [];
  const hit = (how) => () => { window.__xss = window.__xss ?? how; };
  window.alert = hit('alert');
  window.confirm = hit('confirm');
  window.prompt = hit('prompt');
  window.print = hit('print');
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + (event.sample || ''));
  });
})();`;

/** What must never be found in the transcript after agent text was rendered. */
function findDangers(): string[] {
  const root = document.getElementById('transcript');
  if (!root) return ['no transcript'];
  const forbidden = new Set([
    'script',
    'iframe',
    'object',
    'embed',
    'form',
    'style',
    'link',
    'meta',
    'base',
    'frame',
    'frameset',
    'portal',
    'math',
    'video',
    'audio',
    'input',
    'textarea',
    'select',
    'template',
    'noscript',
    'xmp',
    'plaintext',
    'listing',
    'marquee',
    'isindex',
    'keygen',
    'img',
    'image',
    'animate',
    'set',
    'use',
    'foreignobject',
    'noembed',
    'noframes',
    'title',
  ]);
  const urlAttributes = new Set([
    'href',
    'src',
    'action',
    'formaction',
    'xlink:href',
    'data',
    'srcdoc',
    'background',
    'poster',
  ]);
  const dangers: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    const ownIcon = element.closest('svg.icon') !== null;
    if (forbidden.has(tag) || (tag === 'svg' && !ownIcon)) dangers.push(`<${tag}>`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) dangers.push(`<${tag} ${name}>`);
      if (name === 'style') dangers.push(`<${tag} style>`);
      if (urlAttributes.has(name)) {
        let protocol: string;
        try {
          protocol = new URL(attribute.value).protocol;
        } catch {
          protocol = 'relative';
        }
        if (!['http:', 'https:', 'mailto:'].includes(protocol)) dangers.push(`<${tag} ${name}=${attribute.value}>`);
      }
    }
    if (tag === 'a' && element.hasAttribute('href')) {
      if (element.getAttribute('target') !== '_blank' || element.getAttribute('rel') !== 'noopener noreferrer') {
        dangers.push(`<a> without target/rel: ${element.getAttribute('href')}`);
      }
    }
  }
  return dangers;
}

describe('agent text cannot script the panel', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let beacon: Server;
  const beaconHits: string[] = [];
  let vectors: string[];

  beforeAll(async () => {
    beacon = createServer((request, response) => {
      beaconHits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/gif' }).end();
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    const raw = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/xss/vectors.json'), 'utf8')) as string[];
    vectors = raw.map((vector) => vector.replaceAll('{{BEACON}}', beaconUrl));
    peer = await startShowcasePeer({ corpus: vectors });
    launched = await launchWithExtension();
    await launched.context.addInitScript(TRIPWIRE);
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
    await new Promise<void>((resolve) => beacon?.close(() => resolve()));
  });

  const state = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as { __xss?: unknown; __violations?: string[]; __tripwire?: boolean };
      return { xss: w.__xss ?? null, violations: w.__violations ?? [], tripwire: w.__tripwire === true };
    });

  /** Lets anything deferred (image errors, timers, frames) run before looking. */
  const settle = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300))),
        ),
    );

  it(`renders the corpus as inert text (${'at least 150'} vectors, streamed and restored)`, async () => {
    expect(vectors.length).toBeGreaterThanOrEqual(150);
    const panel = await openPanelTab(launched);
    expect((await state(panel)).tripwire).toBe(true);
    await addAgentThroughForm(panel, { name: 'Mallory', url: peer.url, token: '' });
    await expect.poll(() => panel.getByRole('button', { name: /^Mallory: connected/ }).count(), T).toBe(1);
    await sendMessage(panel, 'corpus');
    const reply = panel.locator('article.message.agent.done[aria-busy="false"]');
    await expect.poll(() => reply.count(), T).toBe(1);
    expect(await reply.locator('.markdown').last().textContent()).toBe(`corpus done: ${vectors.length}`);
    // One message per vector (plus thoughts for some), each rendered on its own.
    expect(await reply.locator('.body > .markdown').count()).toBe(vectors.length + 1);
    await settle(panel);

    expect(await panel.evaluate(findDangers)).toEqual([]);
    expect(await state(panel)).toEqual({ xss: null, violations: [], tripwire: true });
    expect(beaconHits).toEqual([]);
    // The text survives as text: what the agent wrote is readable, not silently dropped.
    const text = (await reply.textContent()) ?? '';
    expect(text).toContain('<script>window.__xss=1</script>');
    expect(text).toContain('click me');

    // The same transcript, restored from history when the panel opens again.
    await expect
      .poll(
        async () => JSON.stringify(await panel.evaluate(() => chrome.storage.local.get(null))).includes('corpus done'),
        T,
      )
      .toBe(true);
    await panel.close();
    const reopened = await openPanelTab(launched);
    const restored = reopened.locator('article.message.agent');
    await expect.poll(() => restored.count(), T).toBe(1);
    expect(await restored.locator('.body > .markdown').count()).toBe(vectors.length + 1);
    await settle(reopened);
    expect(await reopened.evaluate(findDangers)).toEqual([]);
    expect(await state(reopened)).toEqual({ xss: null, violations: [], tripwire: true });
    expect(beaconHits).toEqual([]);

    // Control: the same checks do catch markup that bypasses the renderer.
    await reopened.evaluate(() => {
      const probe = document.createElement('div');
      probe.innerHTML = '<img src="x" onerror="window.__xss=2">';
      document.getElementById('transcript')!.append(probe);
    });
    expect(await reopened.evaluate(findDangers)).toEqual(['<img>', '<img src=x>', '<img onerror>']);
    await expect.poll(async () => (await state(reopened)).violations.length, T).toBeGreaterThan(0);
    expect((await state(reopened)).xss).toBeNull();
    await reopened.close();
  });
});
