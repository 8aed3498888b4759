/**
 * The token `npm run broker` keeps across restarts, so a saved agent keeps connecting: created once
 * in the user's config directory ($XDG_CONFIG_HOME/tabwright, else ~/.config/tabwright) in a file
 * only they can read (0600, in a 0700 directory), read back on every later start through the same
 * checks as `--token-file`, and replaced only when asked (`--new-token`).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readTokenFile } from './token-file';

export function freshToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Where Tabwright keeps its files; throws when the environment names no home to keep them in. */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'tabwright');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.config', 'tabwright');
  throw new Error(
    'Neither XDG_CONFIG_HOME nor HOME is set, so there is nowhere to keep the token: ' +
      'give one with --token-file <path> or TABWRIGHT_TOKEN',
  );
}

export function keptTokenPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'token');
}

export interface KeptToken {
  token: string;
  path: string;
  /** 'created' the first time, 'rotated' when `--new-token` replaced it, else 'kept'. */
  how: 'created' | 'rotated' | 'kept';
}

/** Writes a new token where no other user can read it, in one step: no one sees half a file. */
function writePrivate(path: string, token: string, replace: boolean): boolean {
  const target = replace ? `${path}.${process.pid}.new` : path;
  let fd: number;
  try {
    fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if (!replace && (error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  if (replace) {
    try {
      renameSync(target, path);
    } catch (error) {
      rmSync(target, { force: true });
      throw error;
    }
  }
  return true;
}

export function keepToken(path: string, options: { rotate: boolean } = { rotate: false }): KeptToken {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  if (options.rotate) {
    const token = freshToken();
    writePrivate(path, token, true);
    return { token, path, how: 'rotated' };
  }
  const token = freshToken();
  // Created only if absent: two brokers starting at once agree on the first one written.
  if (writePrivate(path, token, false)) return { token, path, how: 'created' };
  try {
    return { token: readTokenFile(path), path, how: 'kept' };
  } catch (error) {
    throw new Error(
      `${(error as Error).message.replace(/^--token-file /, 'The kept token ')} (or run with --new-token)`,
      {
        cause: error,
      },
    );
  }
}
