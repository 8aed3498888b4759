/**
 * An agent's failure as the panel should read it: the agent's own error (code, message, data)
 * kept whole, with the last lines the agent wrote to stderr added to its data, since that is
 * often where the cause is (a refused login, a missing key, an option refused as root).
 */
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import type { AgentProcess } from './agent-process';

/** Where the stderr tail travels in an error's data, next to whatever the agent put there. */
export const STDERR_DATA_KEY = 'stderr';

export function withStderr(error: RequestError, stderr: string): RequestError {
  if (!stderr) return error;
  const data = error.data;
  const merged =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? { ...data, [STDERR_DATA_KEY]: stderr }
      : data === undefined || data === null
        ? { [STDERR_DATA_KEY]: stderr }
        : { details: data, [STDERR_DATA_KEY]: stderr };
  return new RequestError(error.code, error.message, merged);
}

/**
 * What to answer the panel when a request to the agent failed. An error the agent answered is
 * relayed at once; anything else is the connection to it closing, which is the process ending
 * (its stdout closes a moment before its exit is seen), said with how it ended. Either carries
 * only the stderr the agent wrote since `mark`, taken as the request was sent (stderrMark).
 */
export async function agentFailure(error: unknown, process: AgentProcess, mark: number): Promise<Error> {
  if (error instanceof RequestError) return withStderr(error, process.stderrTail(mark));
  if (await process.endedWithin(2_000)) {
    return withStderr(new RequestError(-32603, process.describeExit()), process.stderrTail(mark));
  }
  return error instanceof Error ? error : new Error(String(error));
}
