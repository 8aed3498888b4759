/**
 * Demo commands for exercising the panel itself: a long streamed turn (liveness must not cut a
 * turn that is still streaming) and a permission question (the user's answer goes back to the
 * agent).
 */
import type { PermissionOption } from '@agentclientprotocol/sdk/unstable';
import type { DemoCommand } from './turn-io';

export const STREAM_MAX_LINES = 10_000;
export const STREAM_MAX_DELAY_MS = 60_000;
export const STREAM_DEFAULT_DELAY_MS = 250;

/** `stream <n> [delayMs] [label…]`: the label, if any, tags every line (handy when tests run many turns). */
export function parseStreamCommand(argument: string): { lines: number; delayMs: number; label: string } | string {
  const [count, ...rest] = argument.trim().split(/\s+/).filter(Boolean);
  const delay = rest[0] !== undefined && /^\d+$/.test(rest[0]) ? rest.shift() : undefined;
  const label = rest.join(' ');
  const lines = Number(count);
  const delayMs = delay === undefined ? STREAM_DEFAULT_DELAY_MS : Number(delay);
  if (!Number.isInteger(lines) || lines < 1 || lines > STREAM_MAX_LINES) {
    return `Say \`stream <n> [delayMs]\` with 1 ≤ n ≤ ${STREAM_MAX_LINES}.`;
  }
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > STREAM_MAX_DELAY_MS) {
    return `The delay must be a whole number of milliseconds from 0 to ${STREAM_MAX_DELAY_MS}.`;
  }
  return { lines, delayMs, label };
}

export const ASK_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject once', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms === 0) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

export const robustnessCommands: Record<string, DemoCommand> = {
  stream: {
    usage: 'stream <n> [delayMs]',
    summary: `stream n numbered lines, one every delayMs (default ${STREAM_DEFAULT_DELAY_MS} ms)`,
    async run(argument, io) {
      const parsed = parseStreamCommand(argument);
      if (typeof parsed === 'string') return io.say(parsed);
      for (let line = 1; line <= parsed.lines && !io.signal.aborted; line++) {
        if (line > 1) await sleep(parsed.delayMs, io.signal);
        if (io.signal.aborted) break;
        await io.say(`Line ${line} of ${parsed.lines}${parsed.label ? ` (${parsed.label})` : ''}\n`);
      }
    },
  },
  ask: {
    usage: 'ask <question>',
    summary: 'ask you a question through a permission request and report your answer',
    async run(argument, io) {
      if (!argument) return io.say('Ask what? Say `ask <question>`.');
      const answer = await io.ask(argument, ASK_OPTIONS);
      if (answer.outcome.outcome !== 'selected') return io.say('The question was cancelled: no answer.');
      const { optionId } = answer.outcome;
      const option = ASK_OPTIONS.find((candidate) => candidate.optionId === optionId);
      await io.say(`You answered: **${option?.name ?? optionId}** (\`${optionId}\`).`);
    },
  },
};
