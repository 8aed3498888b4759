import { describe, expect, it } from 'vitest';
import { brokerDropsRepeats, planSession } from './session-plan';

describe('planSession', () => {
  it('starts new without a known session', () => {
    expect(planSession({ loadSession: true, sessionCapabilities: { resume: {} } }, undefined)).toBe('session/new');
  });
  it('prefers resume, then load, then new', () => {
    expect(planSession({ loadSession: true, sessionCapabilities: { resume: {} } }, 's')).toBe('session/resume');
    expect(planSession({ loadSession: true }, 's')).toBe('session/load');
    expect(planSession({}, 's')).toBe('session/new');
    expect(planSession(undefined, 's')).toBe('session/new');
  });
  it('reads the broker de-duplication flag', () => {
    expect(brokerDropsRepeats({ 'tabwright/dropsRepeatedPrompts': true })).toBe(true);
    expect(brokerDropsRepeats({ 'tabwright/dropsRepeatedPrompts': 'yes' })).toBe(false);
    expect(brokerDropsRepeats(undefined)).toBe(false);
  });
});
