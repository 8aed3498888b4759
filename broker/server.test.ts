import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli, type CliConfig } from './main';
import { negotiateRevision } from './mcp-http';
import { mcpRoute, redactor } from './server';

describe('broker plumbing', () => {
  it('routes /mcp and /mcp/<session>', () => {
    expect(mcpRoute('/mcp')).toBe('');
    expect(mcpRoute('/mcp/')).toBe('');
    expect(mcpRoute('/mcp/3f1c-aa')).toBe('3f1c-aa');
    expect(mcpRoute('/mcpx')).toBeUndefined();
    expect(mcpRoute('/mcp/a/b')).toBeUndefined();
    expect(mcpRoute('/mcp/..%2f')).toBeUndefined();
    expect(mcpRoute('/acp')).toBeUndefined();
  });

  it('masks the token wherever it appears', () => {
    const redact = redactor('s3cret');
    expect(redact('header Authorization: Bearer s3cret and s3cret again')).toBe(
      'header Authorization: Bearer *** and *** again',
    );
    expect(redactor('')('nothing to hide')).toBe('nothing to hide');
  });

  it('answers with the client’s revision when served, else the newest', () => {
    expect(negotiateRevision('2025-06-18')).toBe('2025-06-18');
    expect(negotiateRevision('2025-11-25')).toBe('2025-11-25');
    expect(negotiateRevision('2024-11-05')).toBe('2025-11-25');
    expect(negotiateRevision(undefined)).toBe('2025-11-25');
  });
});

describe('the command line', () => {
  // Never the real config directory: the kept token goes to a temporary one.
  const config = mkdtempSync(join(tmpdir(), 'tabwright-config-'));
  afterAll(() => rmSync(config, { recursive: true, force: true }));
  const env = { XDG_CONFIG_HOME: config };

  it('defaults to the demo agent on loopback with the kept token', () => {
    const parsed = parseCli([], env);
    expect(parsed).toMatchObject({ port: 8765, host: '127.0.0.1', dialect: 'a', agentCommand: undefined });
    expect((parsed as { token: string }).token).toMatch(/^[\w-]{32}$/);
  });

  it('takes an agent command, a dialect, a token and a port', () => {
    expect(
      parseCli(['--agent', ' my-agent --acp ', '--dialect', 'b', '--token', 'abc', '--port', '0'], {}),
    ).toMatchObject({ agentCommand: 'my-agent --acp', dialect: 'b', token: 'abc', port: 0 });
    expect(parseCli([], { TABWRIGHT_TOKEN: 'from-env' })).toMatchObject({ token: 'from-env' });
    expect(parseCli(['--no-token'], { TABWRIGHT_TOKEN: 'x' })).toMatchObject({ token: '' });
    expect(parseCli(['--detached-ttl', '2.5'], env)).toMatchObject({ detachedAgentTtlMs: 150_000 });
    expect(parseCli([], env)).toMatchObject({ detachedAgentTtlMs: undefined });
  });

  it('refuses what would fail later', () => {
    expect(() => parseCli(['--dialect', 'c'], {})).toThrow(/dialect/);
    expect(() => parseCli(['--port', 'x'], {})).toThrow(/port/);
    expect(() => parseCli(['--agent', '  '], {})).toThrow(/agent/);
    expect(() => parseCli(['--token', 'a/b='], {})).toThrow(/subprotocol/);
    expect(() => parseCli(['--host', '0.0.0.0', '--no-token'], {})).toThrow(/needs a token/);
    expect(() => parseCli(['--detached-ttl', '0'], {})).toThrow(/detached-ttl/);
    expect(() => parseCli(['--detached-ttl', 'soon'], {})).toThrow(/detached-ttl/);
    expect(parseCli(['-h'], {})).toBe('help');
  });

  it('refuses to front an agent without a token', () => {
    expect(() => parseCli(['--no-token', '--agent', 'my-agent --acp'], {})).toThrow(
      /--no-token cannot front an --agent/,
    );
    expect(parseCli(['--no-token'], {})).toMatchObject({ token: '', tokenSource: 'none', agentCommand: undefined });
  });

  it('admits the extensions given by id, repeated or as a comma list', () => {
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(32);
    expect(parseCli(['--extension-id', a, '--extension-id', `${b},${a}`], env)).toMatchObject({ extensionIds: [a, b] });
    expect(parseCli([], env)).toMatchObject({ extensionIds: [] });
    expect(() => parseCli(['--extension-id', 'not-an-id'], {})).toThrow(/32 letters a–p/);
  });

  it('warns about a token on the command line, and only then', () => {
    const warnings = (parseCli(['--token', 'abc'], {}) as CliConfig).warnings;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ps.*--token-file.*TABWRIGHT_TOKEN/);
    expect(warnings[0]).not.toContain('abc');
    expect((parseCli([], { TABWRIGHT_TOKEN: 'from-env' }) as CliConfig).warnings).toEqual([]);
    expect((parseCli([], env) as CliConfig).warnings).toEqual([]);
  });

  describe('--token-file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabwright-token-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string, mode: number) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      chmodSync(path, mode);
      return path;
    };

    it('reads a private file, dropping the trailing newline, and takes it over the environment', () => {
      const path = file('ok', 'from-file\n', 0o600);
      expect(parseCli(['--token-file', path], { TABWRIGHT_TOKEN: 'from-env' })).toMatchObject({
        token: 'from-file',
        tokenSource: 'file',
        warnings: [],
      });
      expect(parseCli(['--token-file', file('crlf', 'crlf-token\r\n', 0o400)], {})).toMatchObject({
        token: 'crlf-token',
      });
    });

    it('refuses a file others can read, naming the fix', () => {
      for (const mode of [0o644, 0o640, 0o604, 0o660]) {
        const path = file(`open-${mode.toString(8)}`, 'secret\n', mode);
        expect(() => parseCli(['--token-file', path], {})).toThrow(
          new RegExp(`other users \\(mode 0${mode.toString(8)}\\): run chmod 600`),
        );
      }
    });

    it('refuses what is not a regular file with a token in it', () => {
      expect(() => parseCli(['--token-file', dir], {})).toThrow(/not a regular file/);
      const link = join(dir, 'link');
      symlinkSync(file('target', 'linked\n', 0o600), link);
      expect(() => parseCli(['--token-file', link], {})).toThrow(/symbolic link/);
      expect(() => parseCli(['--token-file', join(dir, 'missing')], {})).toThrow(/does not exist/);
      expect(() => parseCli(['--token-file', file('empty', '\n', 0o600)], {})).toThrow(/is empty/);
      expect(() => parseCli(['--token-file', file('spaced', 'two words\n', 0o600)], {})).toThrow(/subprotocol/);
      expect(() => parseCli(['--token-file', file('big', 'x'.repeat(5000), 0o600)], {})).toThrow(/too large/);
    });

    it('takes the token one way only', () => {
      const path = file('one', 'one-way\n', 0o600);
      expect(() => parseCli(['--token-file', path, '--token', 'abc'], {})).toThrow(/not both/);
      expect(() => parseCli(['--token-file', path, '--no-token'], {})).toThrow(/contradict/);
      expect(() => parseCli(['--token', 'abc', '--no-token'], {})).toThrow(/contradict/);
      expect(() => parseCli([], { TABWRIGHT_TOKEN: ' ' })).toThrow(/TABWRIGHT_TOKEN is empty/);
    });
  });
});
