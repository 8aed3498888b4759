/**
 * `--token-file`: the token kept in a file only its owner can read, so it never shows in `ps` the
 * way `--token <t>` does. The file is opened once without following a symbolic link and checked
 * through that same descriptor, so it cannot be swapped between the check and the read.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

const MAX_TOKEN_FILE_BYTES = 4096;

export function readTokenFile(path: string): string {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in the way must not hang the start.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ELOOP'
        ? 'is a symbolic link: name the file itself'
        : code === 'ENOENT'
          ? 'does not exist'
          : `cannot be read (${code ?? (error as Error).message})`;
    throw new Error(`--token-file ${path} ${why}`, { cause: error });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`--token-file ${path} is not a regular file`);
    const mode = stat.mode & 0o777;
    if (mode & 0o077) {
      throw new Error(
        `--token-file ${path} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}): ` +
          `run chmod 600 ${path}`,
      );
    }
    if (stat.size > MAX_TOKEN_FILE_BYTES) throw new Error(`--token-file ${path} is too large for a token`);
    const token = readFileSync(fd, 'utf8').replace(/\r?\n$/, '');
    if (!token) throw new Error(`--token-file ${path} is empty`);
    return token;
  } finally {
    closeSync(fd);
  }
}
