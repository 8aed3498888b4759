/**
 * Chrome's extension calls take no AbortSignal, nor can a command already sent to a page be called
 * back: a cancelled tool call stops waiting for one (rejecting with the signal's reason) while the
 * work itself runs to its end.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // What the abandoned work comes to is of no interest, its failure included.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
