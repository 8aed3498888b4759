import { describe, expect, it } from 'vitest';
import { extensionIdInReason, notAdmittedReason, REFUSAL_CLOSE, refusalOf } from '../contract/refusals';
import { classifyFailure } from './failure';
import type { SocketObservation } from './socket-observer';

const URL = 'ws://127.0.0.1:8765/acp';
const ID = 'abcdefghijklmnopabcdefghijklmnop';
const observed = (fields: Partial<SocketObservation>): SocketObservation => ({
  opened: false,
  protocol: '',
  closeCode: undefined,
  closeReason: '',
  socket: undefined,
  ...fields,
});
const answers = async () => undefined;
const silent = async () => {
  throw new TypeError('Failed to fetch');
};

describe('close codes', () => {
  it('map to one cause each, and nothing else does', () => {
    expect(refusalOf(4401)).toBe('wrongToken');
    expect(refusalOf(4403)).toBe('notAdmitted');
    expect(refusalOf(4404)).toBe('wrongPath');
    for (const code of [undefined, 1000, 1001, 1006, 4000, 4400, 4402]) expect(refusalOf(code)).toBeUndefined();
    expect(new Set(Object.values(REFUSAL_CLOSE)).size).toBe(Object.keys(REFUSAL_CLOSE).length);
  });

  it('carry the extension id in a reason short enough for a close frame', () => {
    const reason = notAdmittedReason(ID);
    expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123);
    expect(extensionIdInReason(reason)).toBe(ID);
    expect(extensionIdInReason('extension not admitted: start the broker with --extension-id NOT-AN-ID')).toBe(
      undefined,
    );
  });
});

describe('classifyFailure', () => {
  const closedBy = (closeCode: number, closeReason = '') =>
    observed({ opened: true, protocol: 'acp.v1', closeCode, closeReason });

  it('names what the broker said in its close frame, without asking the network', async () => {
    const probe = () => Promise.reject(new Error('not called'));
    expect(await classifyFailure(URL, closedBy(4401, 'wrong token'), probe)).toMatchObject({
      kind: 'auth_failed',
      detail: expect.stringMatching(/^wrong token/),
    });
    expect(await classifyFailure(URL, closedBy(4403, notAdmittedReason(ID)), probe)).toEqual({
      kind: 'not_admitted',
      detail: expect.stringContaining(`--extension-id ${ID}`),
      extensionId: ID,
    });
    expect(await classifyFailure('ws://127.0.0.1:8765/wrong', closedBy(4404), probe)).toMatchObject({
      kind: 'wrong_path',
      detail: expect.stringContaining('serves /acp'),
    });
  });

  it('tells a close after open apart from a refusal', async () => {
    expect(await classifyFailure(URL, closedBy(1001, 'broker shutting down'), silent)).toEqual({
      kind: 'closed',
      detail: 'closed by broker (1001, broker shutting down)',
    });
  });

  it('calls a server that opens without acp.v1 not a broker, and never repeats a token it echoed', async () => {
    const echoed = await classifyFailure(URL, observed({ opened: true, protocol: 'openab.bearer.s3cret' }), silent);
    expect(echoed.kind).toBe('not_broker');
    expect(echoed.detail).not.toContain('s3cret');
    expect((await classifyFailure(URL, observed({ opened: true, protocol: 'chat' }), silent)).detail).toContain(
      '"chat"',
    );
  });

  it('without a close frame, tells a server that turned the socket away from nothing listening', async () => {
    expect(await classifyFailure(URL, observed({ closeCode: 1006 }), answers)).toMatchObject({ kind: 'rejected' });
    expect(await classifyFailure(URL, observed({ closeCode: 1006 }), silent)).toEqual({
      kind: 'unreachable',
      detail: `nothing listening at ${URL}: is the broker running?`,
    });
    // A refusal code only counts from a socket that opened: before that, no broker spoke.
    expect(await classifyFailure(URL, observed({ closeCode: 4401 }), silent)).toMatchObject({ kind: 'unreachable' });
  });
});
