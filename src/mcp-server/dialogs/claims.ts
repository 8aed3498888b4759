/**
 * The panel's side of the line each armed dialog relay keeps open (page/dialogs/relay.ts): a
 * call claims its arming's token before it arms, and releases it when it ends, whatever the
 * outcome. A relay whose line is declined or dropped disarms, so an answer never outlives the
 * call it was given for. Lines for tokens this panel does not hold — another window's panel, a
 * call already over — are declined at once.
 */

/** One relay's line, as the platform hands it over. */
export interface ArmingLine {
  disconnect(): void;
  onDisconnect(listener: () => void): void;
}

export class ArmingClaims {
  readonly #claimed = new Map<string, Set<ArmingLine>>();

  /** Claims `token` for a call; the returned function releases it (safe to call twice). */
  claim(token: string): () => void {
    const lines = new Set<ArmingLine>();
    this.#claimed.set(token, lines);
    return () => {
      if (this.#claimed.get(token) !== lines) return;
      this.#claimed.delete(token);
      for (const line of lines) line.disconnect();
      lines.clear();
    };
  }

  /** A relay armed with `token` opened its line. */
  accept(token: string, line: ArmingLine): void {
    const lines = this.#claimed.get(token);
    if (!lines) return line.disconnect();
    lines.add(line);
    line.onDisconnect(() => lines.delete(line));
  }

  /** Tokens claimed now, for tests. */
  get size(): number {
    return this.#claimed.size;
  }
}
