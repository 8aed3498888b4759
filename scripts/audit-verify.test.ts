import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../src/mcp-server/gates/audit-log';
import type { AuditEntry } from '../src/mcp-server/gates/types';
import { MemoryArea } from '../src/shared/stores';

const run = promisify(execFile);

async function verify(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts', ...args]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('npm run audit:verify', () => {
  let dir: string;
  let exported: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tabwright-audit-'));
    const log = new AuditLog(new MemoryArea(), { limit: 3 });
    for (let n = 1; n <= 5; n++) {
      log.append({
        id: `id-${n}`,
        time: Date.UTC(2026, 0, 1, 0, 0, n),
        agent: 'Demo',
        server: 'tabwright',
        tool: 'type',
        origin: 'http://127.0.0.1:8090',
        args: { text: `note ${n}` },
        outcome: 'ok',
        durationMs: 5,
      });
    }
    exported = await log.exportChain();
    await writeFile(join(dir, 'log.jsonl'), exported);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('says the chain holds, counting what was dropped before the checkpoint', async () => {
    expect(await verify(join(dir, 'log.jsonl'))).toEqual({
      code: 0,
      out: 'The chain holds: 3 entries after 2 dropped entries.\n',
    });
  });

  it('names the first broken entry of an edited export and exits 1', async () => {
    const lines = exported.trimEnd().split('\n');
    const second = JSON.parse(lines[2]!) as AuditEntry;
    lines[2] = JSON.stringify({ ...second, args: { text: 'something else' } });
    await writeFile(join(dir, 'edited.jsonl'), lines.join('\n'));
    const { code, out } = await verify(join(dir, 'edited.jsonl'));
    expect(code).toBe(1);
    expect(out).toBe('Broken: entry 2 (2026-01-01T00:00:04.000Z, Demo, type) was changed after it was written.\n');
  });

  it('compares with a collector’s copy', async () => {
    const { code, out } = await verify(join(dir, 'log.jsonl'), '--copy', join(dir, 'log.jsonl'));
    expect(code).toBe(0);
    expect(out).toContain('It matches the copy on all 3 entries both hold.');
  });

  it('explains its usage', async () => {
    expect(await verify()).toMatchObject({ code: 2, out: expect.stringContaining('usage: npm run audit:verify') });
  });
});
