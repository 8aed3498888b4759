// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { AgentProfile } from '../../shared/settings';
import type { AgentView } from '../agent-hub';
import { emptySessionState } from '../session-state';
import { chipName, Roster } from './roster';

const view = (fields: Partial<AgentView> = {}): AgentView => ({
  profile: AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:1/acp' }),
  status: 'connected',
  detail: undefined,
  busy: false,
  pending: 0,
  session: emptySessionState(),
  ...fields,
});

describe('roster chips', () => {
  it('name the agent and its state in words, first', () => {
    expect(chipName(view(), false)).toBe('Demo: connected, read-only');
    expect(chipName(view(), true)).toBe('Demo: connected, can act');
    expect(chipName(view({ busy: true, pending: 2 }), false)).toBe('Demo: connected, read-only, replying…, 2 queued');
    expect(chipName(view({ status: 'auth_failed' }), false)).toBe('Demo: auth failed, tunnel not attached. Reconnect');
    const noBrowser = view({ profile: { ...view().profile, browserAccess: false } });
    expect(chipName(noBrowser, true)).toBe('Demo: connected, no browser access');
  });

  it('reconnect when unhealthy, open details when healthy, and keep focus across updates', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = { reconnect: vi.fn(), disconnect: vi.fn(), edit: vi.fn() };
    const roster = new Roster(root, actions);
    roster.render([view({ status: 'unreachable' })], false);
    const chip = root.querySelector('button')!;
    chip.click();
    expect(actions.reconnect).toHaveBeenCalledWith('a1');

    roster.render([view()], false);
    expect(root.querySelector('button')).toBe(chip);
    chip.focus();
    chip.click();
    expect(chip.getAttribute('aria-expanded')).toBe('true');
    const details = document.getElementById('agent-details')!;
    expect(details.hidden).toBe(false);
    roster.render([view({ busy: true })], false);
    expect(document.activeElement).toBe(chip);
    [...details.querySelectorAll('button')].find((b) => b.textContent === 'Disconnect Demo')!.click();
    expect(actions.disconnect).toHaveBeenCalledWith('a1');
    roster.render([], false);
    expect(root.childElementCount).toBe(0);
    expect(details.hidden).toBe(true);
  });
});
