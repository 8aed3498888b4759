// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { AgentProfile } from '../../shared/settings';
import type { AgentView } from '../agent-hub';
import { signInOptions } from '../../acp/sign-in';
import { emptySessionState } from '../session-state';
import { chipName, Roster } from './roster';

const view = (fields: Partial<AgentView> = {}): AgentView => ({
  profile: AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:1/acp' }),
  status: 'connected',
  detail: undefined,
  busy: false,
  pending: 0,
  session: emptySessionState(),
  signIn: [],
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
    const actions = { reconnect: vi.fn(), disconnect: vi.fn(), edit: vi.fn(), signIn: vi.fn() };
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

  it('show an agent that needs signing in with its own badge, and its methods with what to do', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = { reconnect: vi.fn(), disconnect: vi.fn(), edit: vi.fn(), signIn: vi.fn() };
    const roster = new Roster(root, actions);
    const signIn = signInOptions([
      { type: 'env_var', id: 'codex-api-key', name: 'Use CODEX_API_KEY', vars: [{ name: 'CODEX_API_KEY' }] },
      {
        type: 'terminal',
        id: 'login',
        name: 'Log in',
        _meta: { 'terminal-auth': { command: 'agent', args: ['--login'] } },
      },
    ]);
    const waiting = view({ status: 'needs_signin', detail: 'the agent needs signing in', signIn });
    expect(chipName(waiting, false)).toBe('Demo: needs sign-in, tunnel not attached');
    expect(chipName(view({ status: 'auth_failed' }), false)).not.toContain('needs sign-in');
    roster.render([waiting], false);
    const chip = root.querySelector('button')!;
    expect(chip.querySelector('.badge.connection')!.textContent).toBe('needs sign-in');
    chip.click();
    expect(actions.reconnect).not.toHaveBeenCalled();
    const details = root.nextElementSibling as HTMLElement;
    expect(details.textContent).toContain('Demo needs signing in. Pick how:');
    expect(details.textContent).toContain('Start the broker with CODEX_API_KEY set (CODEX_API_KEY=…');
    expect(details.querySelector('pre code')!.textContent).toBe('agent --login');
    const buttons = [...details.querySelectorAll('button')];
    buttons.find((b) => b.textContent === 'Sign in: Use CODEX_API_KEY')!.click();
    expect(actions.signIn).toHaveBeenCalledWith('a1', 'codex-api-key');
    buttons.find((b) => b.textContent === 'Retry Demo')!.click();
    expect(actions.reconnect).toHaveBeenCalledWith('a1');
    roster.render([view({ status: 'refused' })], false);
    expect(root.querySelector('.badge.connection')!.textContent).toBe('session refused');
    roster.render([], false);
  });
});
