import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configDir, keepToken, keptTokenPath } from './kept-token';
import { banner, parseCli, type CliConfig } from './main';
import type { RunningBroker } from './server';

// A temporary config directory for every test: the real one is never touched.
const root = mkdtempSync(join(tmpdir(), 'tabwright-kept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const freshConfig = () => ({ XDG_CONFIG_HOME: join(root, `config-${++count}`) });
const mode = (path: string) => statSync(path).mode & 0o777;

describe('where the token is kept', () => {
  it('is the XDG config directory, else ~/.config, and nowhere when neither is set', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/a' })).toBe('/x/config/tabwright');
    expect(configDir({ HOME: '/home/a' })).toBe('/home/a/.config/tabwright');
    // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
    expect(configDir({ XDG_CONFIG_HOME: 'rel', HOME: '/home/a' })).toBe('/home/a/.config/tabwright');
    expect(() => configDir({})).toThrow(/--token-file <path> or TABWRIGHT_TOKEN/);
    expect(keptTokenPath({ HOME: '/home/a' })).toBe('/home/a/.config/tabwright/token');
  });
});

describe('the kept token', () => {
  it('is created once, readable by its owner alone, and the same on every start', () => {
    const path = keptTokenPath(freshConfig());
    const first = keepToken(path);
    expect(first).toMatchObject({ path, how: 'created' });
    expect(first.token).toMatch(/^[\w-]{32}$/);
    expect(mode(path)).toBe(0o600);
    expect(mode(join(path, '..'))).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toBe(`${first.token}\n`);
    expect(keepToken(path)).toEqual({ token: first.token, path, how: 'kept' });
  });

  it('is replaced by --new-token, still 0600', () => {
    const path = keptTokenPath(freshConfig());
    const first = keepToken(path);
    const rotated = keepToken(path, { rotate: true });
    expect(rotated.how).toBe('rotated');
    expect(rotated.token).not.toBe(first.token);
    expect(mode(path)).toBe(0o600);
    expect(keepToken(path)).toMatchObject({ token: rotated.token, how: 'kept' });
  });

  it('is refused when others can read it, is a link or is empty, naming the fix', () => {
    const path = keptTokenPath(freshConfig());
    keepToken(path);
    chmodSync(path, 0o644);
    expect(() => keepToken(path)).toThrow(
      /^The kept token .*token can be read by other users \(mode 0644\): run chmod 600 .* \(or run with --new-token\)$/,
    );
    writeFileSync(path, '\n');
    chmodSync(path, 0o600);
    expect(() => keepToken(path)).toThrow(/is empty \(or run with --new-token\)/);
    const linked = keptTokenPath(freshConfig());
    keepToken(linked);
    rmSync(linked);
    symlinkSync(path, linked);
    expect(() => keepToken(linked)).toThrow(/symbolic link/);
  });
});

describe('the command line and the kept token', () => {
  it('uses the kept token unless a token is given: --token-file, --token, TABWRIGHT_TOKEN win', () => {
    const env = freshConfig();
    const kept = parseCli([], env) as CliConfig;
    expect(kept).toMatchObject({ tokenSource: 'created', tokenFile: keptTokenPath(env) });
    expect(parseCli([], env)).toMatchObject({ token: kept.token, tokenSource: 'kept' });
    const file = join(root, 'given');
    writeFileSync(file, 'from-file\n', { mode: 0o600 });
    expect(parseCli(['--token-file', file], env)).toMatchObject({ token: 'from-file', tokenSource: 'file' });
    expect(parseCli(['--token', 'from-argv'], env)).toMatchObject({ token: 'from-argv', tokenSource: 'argv' });
    expect(parseCli([], { ...env, TABWRIGHT_TOKEN: 'from-env' })).toMatchObject({ token: 'from-env' });
    expect(parseCli(['--no-token'], env)).toMatchObject({ token: '', tokenSource: 'none', tokenFile: undefined });
    // None of them touched the kept one.
    expect(parseCli([], env)).toMatchObject({ token: kept.token, tokenSource: 'kept' });
  });

  it('creates nothing on disk for a token given another way', () => {
    const env = freshConfig();
    parseCli(['--token', 'abc'], env);
    parseCli(['--no-token'], env);
    parseCli([], { ...env, TABWRIGHT_TOKEN: 'x' });
    expect(() => statSync(env.XDG_CONFIG_HOME)).toThrow(/ENOENT/);
  });

  it('rotates with --new-token, and refuses it beside a token given another way', () => {
    const env = freshConfig();
    const before = (parseCli([], env) as CliConfig).token;
    const rotated = parseCli(['--new-token'], env) as CliConfig;
    expect(rotated.tokenSource).toBe('rotated');
    expect(rotated.token).not.toBe(before);
    expect(parseCli([], env)).toMatchObject({ token: rotated.token, tokenSource: 'kept' });
    expect(() => parseCli(['--new-token', '--token', 'abc'], env)).toThrow(/--new-token.*--token/);
    expect(() => parseCli(['--new-token', '--no-token'], env)).toThrow(/contradict/);
    expect(() => parseCli(['--new-token'], { ...env, TABWRIGHT_TOKEN: 'x' })).toThrow(/TABWRIGHT_TOKEN/);
  });

  it('prints the token only when it is new, and says where it is kept', () => {
    const env = freshConfig();
    const running = { url: 'ws://127.0.0.1:1/acp', mcpUrl: 'http://127.0.0.1:1/mcp' } as RunningBroker;
    const line = (config: CliConfig) =>
      banner(running, config)
        .split('\n')
        .find((l) => l.includes('Token:'))!;
    const created = parseCli([], env) as CliConfig;
    expect(line(created)).toBe(
      `  Token:      ${created.token}   (new; kept in ${keptTokenPath(env)} for the next starts)`,
    );
    const kept = parseCli([], env) as CliConfig;
    expect(line(kept)).toBe(`  Token:      (kept in ${keptTokenPath(env)}, the same as before)`);
    const rotated = parseCli(['--new-token'], env) as CliConfig;
    expect(line(rotated)).toContain(`${rotated.token}   (new: --new-token replaced the one in`);
  });
});
