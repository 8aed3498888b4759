/**
 * The broker process dies — mid-turn and while idle, 20 times each — and comes back on the same
 * port with its state file. The panel's client must resume its session every time and deliver
 * every user message exactly once: none lost, none repeated. A reply the broker's death cut short
 * ends as cut, not as finished.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killProcess as kill, startBrokerProcess as startBroker } from './broker-process';
import { panelClient, until } from './panel-client';

const CYCLES = Number(process.env.RECONNECT_CYCLES ?? 20);
const TOKEN = 'reconnect-token';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function receivedByBroker(stateFile: string): string[] {
  const stored = JSON.parse(readFileSync(stateFile, 'utf8')) as Array<{ received: string[] }>;
  return stored.flatMap((session) => session.received);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('exactly-once delivery across broker restarts', () => {
  const directory = mkdtempSync(join(tmpdir(), 'tabwright-reconnect-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(`loses and repeats nothing over ${CYCLES} kills mid-turn and ${CYCLES} kills while idle`, async () => {
    const port = await freePort();
    const stateFile = join(directory, 'state.json');
    let broker = await startBroker(port, TOKEN, stateFile);
    const client = panelClient({
      url: `ws://127.0.0.1:${port}/acp`,
      token: TOKEN,
      timing: { backoff: { baseMs: 20, capMs: 250 } },
    });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1, 20_000);
    const sent: string[] = [];
    const diagnose = (waiting: Promise<void>) =>
      waiting.catch(async (error: Error) => {
        const probe = await fetch(`http://127.0.0.1:${port}/`).then(
          (r) => `HTTP ${r.status}`,
          (e: Error) => `${e.message} ${String((e.cause as Error)?.message)}`,
        );
        throw new Error(
          `${error.message}; broker pid ${broker.pid} exit ${broker.exitCode}; probe: ${probe}; ` +
            `statuses ${JSON.stringify(client.recorded.statuses.slice(-3))}; notices ${JSON.stringify(client.recorded.notices.slice(-2))}`,
        );
      });
    const recoveries: number[] = [];
    const outcomes: unknown[] = [];

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      // Mid-turn: the reply is streaming when the broker dies.
      const text = `stream 40 25 mid-${cycle}`;
      sent.push(text);
      const updatesBefore = client.recorded.updates.length;
      const turnsBefore = client.recorded.turns.length;
      client.connection.send(text);
      await until(() => client.recorded.updates.length >= updatesBefore + 3, 20_000, `streaming in cycle ${cycle}`);
      const sessionsBefore = client.recorded.sessions.length;
      await kill(broker);
      broker = await startBroker(port, TOKEN, stateFile);
      const killedAt = Date.now();
      await diagnose(
        until(() => client.recorded.sessions.length > sessionsBefore, 20_000, `reconnect in cycle ${cycle}`),
      );
      recoveries.push(Date.now() - killedAt);
      await until(() => client.recorded.turns.length > turnsBefore, 20_000, `the turn to settle in cycle ${cycle}`);
      outcomes.push(client.recorded.turns.at(-1)!.outcome);

      // Idle: nothing running when the broker dies; then a message must get through once.
      const idleSessions = client.recorded.sessions.length;
      await kill(broker);
      broker = await startBroker(port, TOKEN, stateFile);
      const idleKilledAt = Date.now();
      await diagnose(
        until(() => client.recorded.sessions.length > idleSessions, 20_000, `idle reconnect in cycle ${cycle}`),
      );
      recoveries.push(Date.now() - idleKilledAt);
      const idleText = `idle-${cycle}`;
      sent.push(idleText);
      const idleTurns = client.recorded.turns.length;
      client.connection.send(idleText);
      await until(() => client.recorded.turns.length > idleTurns, 20_000, `idle turn in cycle ${cycle}`);
      outcomes.push(client.recorded.turns.at(-1)!.outcome);
    }

    const received = receivedByBroker(stateFile);
    const counts = new Map<string, number>();
    for (const text of received) counts.set(text, (counts.get(text) ?? 0) + 1);
    const lost = sent.filter((text) => !counts.has(text));
    const repeated = [...counts].filter(([, n]) => n > 1).map(([text]) => text);
    const resumed = client.recorded.sessions.slice(1).filter((s) => s.how === 'session/resume').length;
    console.log(
      `${CYCLES} mid-turn + ${CYCLES} idle broker kills: ${sent.length} messages sent, ${received.length} delivered, ` +
        `${lost.length} lost, ${repeated.length} repeated; ${resumed}/${client.recorded.sessions.length - 1} reconnects resumed the session; ` +
        `from broker back up to session resumed: median ${median(recoveries)} ms, max ${Math.max(...recoveries)} ms`,
    );
    expect(lost).toEqual([]);
    expect(repeated).toEqual([]);
    expect(received).toEqual(sent);
    // A reply cut by the broker's death reads as cut, not as finished; one sent while idle ends as usual.
    expect(outcomes).toEqual(
      sent.map((text) =>
        text.startsWith('mid-') || text.includes(' mid-')
          ? { error: expect.stringMatching(/dropped while the agent was answering/), interrupted: 'dropped' }
          : { stopReason: 'end_turn' },
      ),
    );
    expect(client.recorded.sessions.slice(1).every((s) => s.how === 'session/resume')).toBe(true);
    expect(new Set(client.recorded.sessions.map((s) => s.id)).size).toBe(1);
    client.connection.disable();
    await kill(broker);
  }, 600_000);
});
