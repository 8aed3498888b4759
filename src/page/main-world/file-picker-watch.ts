/**
 * Runs in the page's own (main) world for the length of an upload: "Browse" controls that call
 * `window.showOpenFilePicker` do so there, out of the isolated world's sight. While the watch is on,
 * such a call is reported to the page agent by a DOM event and answered as if the user had closed
 * the picker (an AbortError), so no file dialog opens in front of the user. `${event}-done` ends it.
 * Must not close over anything: Chrome serialises the function.
 */
export function watchFilePicker(event: string): void {
  const scope = window as unknown as { showOpenFilePicker?: (...args: unknown[]) => Promise<unknown> };
  const original = scope.showOpenFilePicker;
  if (typeof original !== 'function') return;
  const watched = function (): Promise<unknown> {
    document.dispatchEvent(new Event(event));
    return Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));
  };
  scope.showOpenFilePicker = watched;
  document.addEventListener(
    `${event}-done`,
    () => {
      if (scope.showOpenFilePicker === watched) scope.showOpenFilePicker = original;
    },
    { once: true },
  );
}
