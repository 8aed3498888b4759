/**
 * Finds which element targets in a call's arguments are password fields, by asking the page
 * agent of the frame each ref belongs to (refs carry their frame: `f12e5`), so the values typed
 * into them can be masked in the confirmation, the audit log and the result.
 */
import type { PagePort } from '../browser-port';
import type { ElementTargetArg } from '../tool-spec';

type Target = ElementTargetArg;

export function frameOfRef(ref: string): number {
  const match = /^f(\d+)e\d+$/.exec(ref);
  return match ? Number(match[1]) : 0;
}

export async function passwordTargets(
  page: PagePort,
  tabId: number,
  targets: Target[],
  signal: AbortSignal,
): Promise<ReadonlySet<string>> {
  const secret = new Set<string>();
  if (!targets.length) return secret;
  const byFrame = new Map<number, Target[]>();
  for (const target of targets) {
    const frameId = 'ref' in target ? frameOfRef(target.ref) : 0;
    byFrame.set(frameId, [...(byFrame.get(frameId) ?? []), target]);
  }
  for (const [frameId, inFrame] of byFrame) {
    const reply = await page.run(tabId, { op: 'secretFields', targets: inFrame }, { frameId, signal });
    inFrame.forEach((target, index) => {
      if (reply.secret[index]) secret.add('ref' in target ? target.ref : target.selector);
    });
  }
  return secret;
}
