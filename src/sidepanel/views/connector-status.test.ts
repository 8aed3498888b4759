import { describe, expect, it } from 'vitest';
import { describeStatus } from './connector-status';

describe('connector status in words', () => {
  it('says each state', () => {
    expect(describeStatus({ state: 'unknown' })).toBe('not checked yet');
    expect(describeStatus({ state: 'healthy' })).toBe('healthy');
    expect(describeStatus({ state: 'signed-out', signInUrl: 'http://app.test/login' })).toBe('signed out');
    expect(describeStatus({ state: 'failing', reason: 'Did not find .report' })).toBe('failing: Did not find .report');
    expect(describeStatus({ state: 'failing' })).toBe('failing: unknown error');
    expect(describeStatus({ state: 'not-allowed', reason: 'not an allowed site' })).toBe(
      'site not allowed: not an allowed site',
    );
    expect(describeStatus({ state: 'not-allowed' })).toBe('site not allowed');
    expect(describeStatus({ state: 'no-site' })).toBe('no site yet');
  });
});
