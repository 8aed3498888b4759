/**
 * Verifies an exported audit log: `npm run audit:verify <export.jsonl> [--copy <collected.jsonl>]`.
 * Checks every link of the chain from the export's checkpoint and names the first broken one; with
 * a copy (a collector's), also names the first entry the two disagree on — the only way to catch a
 * chain recomputed from scratch. Exits 0 when everything holds, 1 when something is broken, 2 on
 * bad usage.
 */
import { readFile } from 'node:fs/promises';
import { compareWithCopy, parseExport, verifyChain } from '../src/mcp-server/gates/audit-chain';

const USAGE = 'usage: npm run audit:verify <export.jsonl> [--copy <collected.jsonl>]';

async function read(path: string) {
  const parsed = parseExport(await readFile(path, 'utf8'));
  if ('error' in parsed) throw new Error(`${path}: ${parsed.error}`);
  return parsed;
}

async function main(argv: string[]): Promise<number> {
  const copyAt = argv.indexOf('--copy');
  const copyPath = copyAt >= 0 ? argv[copyAt + 1] : undefined;
  const files = argv.filter((_, i) => copyAt < 0 || (i !== copyAt && i !== copyAt + 1));
  if (files.length !== 1 || (copyAt >= 0 && !copyPath)) {
    console.error(USAGE);
    return 2;
  }
  const log = await read(files[0]!);
  const verdict = await verifyChain(log.entries, log.checkpoint);
  if (!verdict.ok) {
    console.log(`Broken: ${verdict.text}`);
    return 1;
  }
  const from = log.checkpoint.dropped ? ` after ${log.checkpoint.dropped} dropped entries` : '';
  console.log(`The chain holds: ${verdict.entries} entries${from}.`);
  if (copyPath) {
    const copy = await read(copyPath);
    const compared = compareWithCopy(log.entries, copy.entries);
    if (!compared.ok) {
      console.log(`Differs from the copy: ${compared.text}`);
      return 1;
    }
    console.log(`It matches the copy on all ${compared.compared} entries both hold.`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
