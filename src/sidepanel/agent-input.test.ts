import { describe, expect, it } from 'vitest';
import { AgentProfile } from '../shared/settings';
import { checkAgentInput, needsReconnect, type AgentInput } from './agent-input';

const input = (fields: Partial<AgentInput> = {}): AgentInput => ({
  name: 'Demo',
  url: 'ws://127.0.0.1:8765/acp',
  token: '',
  acceptInsecureToken: false,
  serverName: 'tabwright',
  dialect: 'both',
  browserAccess: true,
  enabled: true,
  followCurrentTab: false,
  ...fields,
});

describe('checkAgentInput', () => {
  it('accepts a good agent and trims what it can', () => {
    const checked = checkAgentInput(input({ name: '  Demo ', token: ' abc_123 ' }), { takenNames: [] });
    expect(checked).toEqual({
      ok: true,
      value: { ...input(), name: 'Demo', url: 'ws://127.0.0.1:8765/acp', token: { set: 'abc_123' } },
    });
  });

  it('names the field and what would work', () => {
    const refusal = (fields: Partial<AgentInput>, taken: string[] = []) => {
      const checked = checkAgentInput(input(fields), { takenNames: taken });
      return checked.ok ? undefined : [checked.field, checked.error];
    };
    expect(refusal({ name: ' ' })).toEqual(['name', 'Give the agent a name.']);
    expect(refusal({ name: 'demo' }, ['Demo'])).toEqual(['name', 'Another agent already has this name.']);
    expect(refusal({ url: 'https://broker.example/acp' })).toEqual(['url', 'Use wss:// for the broker, not https://.']);
    expect(refusal({ token: 'has/slash' })?.[0]).toBe('token');
    expect(refusal({ serverName: 'two words' })?.[0]).toBe('serverName');
    expect(refusal({ serverName: 'tabwright.tools' })?.[0]).toBe('serverName');
    expect(refusal({ url: 'ws://broker.example/acp', token: 'secret' })?.[0]).toBe('url');
    expect(refusal({ url: 'ws://broker.example/acp', token: 'secret', acceptInsecureToken: true })).toBeUndefined();
  });

  it('when editing, an empty token keeps the stored one (or forgets it when asked)', () => {
    const editing = { takenNames: [], editing: { hasToken: true } };
    expect(checkAgentInput(input(), editing)).toMatchObject({ ok: true, value: { token: 'keep' } });
    expect(checkAgentInput(input({ forgetToken: true }), editing)).toMatchObject({
      ok: true,
      value: { token: 'forget' },
    });
    // A kept token still travels: a plain ws:// URL to another machine needs the user's consent.
    expect(checkAgentInput(input({ url: 'ws://broker.example/acp' }), editing)).toMatchObject({
      ok: false,
      field: 'url',
    });
  });
});

describe('needsReconnect', () => {
  const before = AgentProfile.parse({ id: 'a', name: 'Demo', url: 'ws://127.0.0.1:1/acp' });
  it('reconnects for what the broker sees, not for a new name', () => {
    expect(needsReconnect(before, { ...before, name: 'Renamed' }, 'keep')).toBe(false);
    expect(needsReconnect(before, { ...before, serverName: 'katashiro' }, 'keep')).toBe(true);
    expect(needsReconnect(before, { ...before, dialect: 'a' }, 'keep')).toBe(true);
    expect(needsReconnect(before, before, { set: 'new-token' })).toBe(true);
    expect(needsReconnect(before, { ...before, enabled: false }, 'keep')).toBe(true);
  });
});
