/**
 * An agent's error in words for the chat. Agents put the substance in `error.data` and a generic
 * phrase in `error.message` ("Internal error"); the broker adds the last lines the agent wrote to
 * stderr. Everything here came from another program, so it is bounded and stripped of control
 * characters before it is shown.
 */
export interface AgentErrorLike {
  message: string;
  data?: unknown;
}

const MAX_MESSAGE = 300;
const MAX_DETAIL = 800;
const MAX_STDERR = 2_048;
const MAX_STDERR_LINES = 20;

/** Keeps tabs and newlines (when asked), drops every other control character and terminal escape. */
export function sanitise(text: string, keepNewlines = false): string {
  // eslint-disable-next-line no-control-regex -- the point is to remove control characters
  const withoutEscapes = text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n?/g, '\n');
  // eslint-disable-next-line no-control-regex -- as above
  const stripped = withoutEscapes.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e]/g, '');
  return keepNewlines ? stripped : stripped.replace(/\s*\n\s*/g, ' ');
}

function bound(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The human part of an error's data: a string, or the usual fields agents use. */
export function dataMessage(data: unknown, depth = 0): string | undefined {
  if (typeof data === 'string') return data.trim() || undefined;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || depth > 2) return undefined;
  const record = data as Record<string, unknown>;
  for (const key of ['message', 'details', 'detail', 'error', 'reason', 'cause']) {
    const found = dataMessage(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

function stderrOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const stderr = (data as Record<string, unknown>).stderr;
  return typeof stderr === 'string' && stderr.trim() ? stderr : undefined;
}

export function agentErrorText(error: AgentErrorLike): string {
  const message = bound(sanitise(error.message).trim(), MAX_MESSAGE) || 'The agent reported an error';
  const raw = dataMessage(error.data);
  const detail = raw ? bound(sanitise(raw).trim(), MAX_DETAIL) : undefined;
  let text = detail && !message.includes(detail) ? `${message}: ${detail}` : message;
  const stderr = stderrOf(error.data);
  if (stderr) {
    // Lines the message already quotes are not repeated.
    const lines = sanitise(stderr, true)
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() && !text.includes(line.trim()))
      .slice(-MAX_STDERR_LINES);
    const joined = lines.join('\n');
    // The end is kept: the last lines are the ones nearest the failure.
    const tail = joined.length > MAX_STDERR ? `…${joined.slice(-(MAX_STDERR - 1))}` : joined;
    if (tail) text += `\n\nThe agent’s stderr before this:\n${tail}`;
  }
  return text;
}
