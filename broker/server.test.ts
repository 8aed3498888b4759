import { describe, expect, it } from 'vitest';
import { parseCli } from './main';
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
  it('defaults to the demo agent on loopback with a fresh token', () => {
    const config = parseCli([], {});
    expect(config).toMatchObject({ port: 8765, host: '127.0.0.1', dialect: 'a', agentCommand: undefined });
    expect((config as { token: string }).token).toMatch(/^[\w-]{32}$/);
  });

  it('takes an agent command, a dialect, a token and a port', () => {
    expect(
      parseCli(['--agent', ' my-agent --acp ', '--dialect', 'b', '--token', 'abc', '--port', '0'], {}),
    ).toMatchObject({ agentCommand: 'my-agent --acp', dialect: 'b', token: 'abc', port: 0 });
    expect(parseCli([], { TABWRIGHT_TOKEN: 'from-env' })).toMatchObject({ token: 'from-env' });
    expect(parseCli(['--no-token'], { TABWRIGHT_TOKEN: 'x' })).toMatchObject({ token: '' });
    expect(parseCli(['--detached-ttl', '2.5'], {})).toMatchObject({ detachedAgentTtlMs: 150_000 });
    expect(parseCli([], {})).toMatchObject({ detachedAgentTtlMs: undefined });
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
});
