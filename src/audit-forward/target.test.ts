import { describe, expect, it } from 'vitest';
import { readPolicy } from '../shared/policy';
import { collectorProblem, forwardTarget } from './target';

describe('forwardTarget', () => {
  it('is off without the key', () => {
    expect(forwardTarget({})).toEqual({ on: false });
  });

  it('takes https anywhere and http on loopback only', () => {
    for (const url of [
      'https://logs.example.com/tabwright',
      'http://127.0.0.1:8088/in',
      'http://localhost/x',
      'http://[::1]:9/',
    ]) {
      expect(collectorProblem(url)).toBeUndefined();
    }
    expect(collectorProblem('http://logs.example.com/in')).toBe('plain-http');
    expect(collectorProblem('http://127.0.0.2/in')).toBe('plain-http');
    expect(collectorProblem('ftp://logs.example.com/')).toBe('scheme');
    expect(collectorProblem('logs')).toBe('not-url');
    expect(collectorProblem('https://u:p@logs.example.com/')).toBe('credentials');
  });

  it('reads the policy key, with a batch size of 100 unless set', () => {
    const { policy } = readPolicy({ AuditForwarding: { url: 'https://logs.example.com:8443/in', token: 't' } });
    expect(forwardTarget(policy)).toEqual({
      on: true,
      url: 'https://logs.example.com:8443/in',
      origin: 'https://logs.example.com:8443',
      token: 't',
      batchSize: 100,
    });
  });

  it('refuses a URL it cannot use and says why, keeping the URL to show', () => {
    const { policy, read } = readPolicy({ AuditForwarding: { url: 'http://logs.example.com/in', token: 't' } });
    expect(read).toEqual(['AuditForwarding']);
    expect(forwardTarget(policy)).toEqual({
      on: false,
      url: 'http://logs.example.com/in',
      refused: 'plain-http',
    });
  });

  it('ignores a key without a token', () => {
    expect(readPolicy({ AuditForwarding: { url: 'https://logs.example.com/' } }).ignored).toEqual(['AuditForwarding']);
  });
});
