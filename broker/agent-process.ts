/**
 * One stdio ACP agent process: the user's command run through the shell in its own process group
 * (so `npx some-agent` and whatever it starts go down together), ACP over its stdin/stdout as
 * newline-delimited JSON, and its stderr relayed to the broker's log with secrets masked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, type ClientApp, type ClientConnection } from '@agentclientprotocol/sdk/unstable';
import { guardedMessages } from './update-guard';

export interface AgentProcessOptions {
  command: string;
  cwd: string;
  /** The client side the broker presents to the agent. */
  client: ClientApp;
  /** The broker's mask (secret-mask.ts), for every stderr line it logs or keeps for an error. */
  redact(text: string): string;
  log(line: string): void;
  env?: NodeJS.ProcessEnv;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What of its stderr an agent's failure carries to the panel: the last lines, bounded in bytes too. */
const STDERR_TAIL_LINES = 20;
const STDERR_TAIL_BYTES = 2_048;
const KILL_GRACE_MS = 3_000;

export class AgentProcess {
  readonly connection: ClientConnection;
  readonly exited: Promise<ExitStatus>;
  readonly #child: ChildProcess;
  /** The last lines written to stderr, each with its place among all the lines written. */
  readonly #tail: Array<{ seq: number; line: string }> = [];
  #written = 0;
  #exit: ExitStatus | undefined;
  #spawnError: Error | undefined;

  constructor(private readonly options: AgentProcessOptions) {
    this.#child = spawn(options.command, {
      shell: true,
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const child = this.#child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
      child.once('error', (error) => {
        this.#spawnError = error;
        this.#exit ??= { code: null, signal: null };
        resolve(this.#exit);
      });
    });
    child.stdin!.on('error', () => undefined);
    this.#relayStderr();
    const stream = ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    );
    this.connection = options.client.connect({
      writable: stream.writable,
      readable: guardedMessages(stream.readable, { mask: options.redact, log: options.log }),
    });
    void this.exited.then(() => this.connection.close(new Error(this.describeExit())));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the process has ended, waiting up to `ms` for its exit (stdout can close a moment before). */
  async endedWithin(ms: number): Promise<boolean> {
    if (!this.alive) return true;
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    return !this.alive;
  }

  get alive(): boolean {
    return this.#exit === undefined;
  }

  #relayStderr(): void {
    let partial = '';
    this.#child.stderr!.setEncoding('utf8');
    this.#child.stderr!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.#remember(line);
      if (partial.length > 4_096) {
        this.#remember(partial);
        partial = '';
      }
    });
    this.#child.stderr!.on('end', () => partial && this.#remember(partial));
  }

  #remember(raw: string): void {
    // Terminal colours and cursor codes mean nothing in a log or a chat message.
    // eslint-disable-next-line no-control-regex -- the escape character is what is removed
    const plain = raw.replace(/\r$/, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    const line = this.options.redact(plain).slice(0, 2_000);
    if (!line.trim()) return;
    this.#tail.push({ seq: this.#written++, line });
    if (this.#tail.length > STDERR_TAIL_LINES) this.#tail.shift();
    this.options.log(`agent: ${line}`);
  }

  /** Where the agent's stderr stands now: `stderrTail(mark)` later gives only what came after. */
  stderrMark(): number {
    return this.#written;
  }

  /**
   * The last lines the agent wrote to stderr (masked) since `mark` (see stderrMark), at most 20
   * lines and 2 KB: what an error it answers with often leaves out (a refused login, a missing key,
   * a crash's cause). Lines from before the failing request belong to something else.
   */
  stderrTail(mark = 0): string {
    const lines: string[] = [];
    let bytes = 0;
    const since = this.#tail.filter((entry) => entry.seq >= mark).map((entry) => entry.line);
    for (const line of since.slice(-STDERR_TAIL_LINES).reverse()) {
      const size = Buffer.byteLength(line) + 1;
      if (bytes + size > STDERR_TAIL_BYTES) {
        if (!lines.length)
          lines.push(
            Buffer.from(line)
              .subarray(-STDERR_TAIL_BYTES + 1)
              .toString('utf8'),
          );
        break;
      }
      lines.push(line);
      bytes += size;
    }
    return lines.reverse().join('\n');
  }

  /** How the process ended, with the last lines it wrote to stderr, for error messages. */
  describeExit(): string {
    if (this.#spawnError) return `The agent command could not be started: ${this.#spawnError.message}`;
    const status = this.#exit;
    const how = !status
      ? 'is still running'
      : status.signal
        ? `was stopped by ${status.signal}`
        : `exited with code ${String(status.code)}`;
    const tail = this.#tail
      .slice(-3)
      .map((entry) => entry.line)
      .join(' | ');
    return `The agent process ${how}${tail ? ` (stderr: ${tail})` : ''}.`;
  }

  /**
   * Ends the whole process group: SIGTERM, then SIGKILL for whatever is left once the shell is
   * gone or the grace period ran out (an agent's own children may ignore SIGTERM).
   */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.#signal('SIGTERM');
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS).unref())]);
    this.#signal('SIGKILL');
    await this.exited;
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already empty.
      if (this.alive) this.#child.kill(signal);
    }
  }
}
