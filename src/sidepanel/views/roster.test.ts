// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { AgentProfile } from '../../shared/settings';
import type { AgentView } from '../agent-hub';
import { signInOptions } from '../../acp/sign-in';
import { applySessionSetup, emptySessionState } from '../session-state';
import type { HeldTab } from '../../presence/tab-sharing';
import { chipName, Roster } from './roster';

const view = (fields: Partial<AgentView> = {}): AgentView => ({
  profile: AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:1/acp' }),
  status: 'connected',
  detail: undefined,
  extensionId: undefined,
  busy: false,
  pending: 0,
  session: emptySessionState(),
  signIn: [],
  agentInfoName: undefined,
  ...fields,
});

const actionSpies = () => ({
  reconnect: vi.fn(),
  disconnect: vi.fn(),
  edit: vi.fn(),
  signIn: vi.fn(),
  setMode: vi.fn(),
  setConfigOption: vi.fn(),
  endSession: vi.fn(),
});

describe('roster chips', () => {
  it('name the agent and its state in words, first', () => {
    expect(chipName(view(), false)).toBe('Demo: connected, read-only');
    expect(chipName(view(), true)).toBe('Demo: connected, can act');
    expect(chipName(view({ busy: true, pending: 2 }), false)).toBe('Demo: connected, read-only, replying…, 2 queued');
    expect(chipName(view({ status: 'auth_failed' }), false)).toBe(
      'Demo: wrong token, no browser until connected. Reconnect',
    );
    const noBrowser = view({ profile: { ...view().profile, browserAccess: false } });
    expect(chipName(noBrowser, true)).toBe('Demo: connected, no browser access');
  });

  it('reconnect when unhealthy, open details when healthy, and keep focus across updates', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = actionSpies();
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

  it('list the agent’s tabs in its details, each taken back by a button named by its title, and follow changes', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    let held: HeldTab[] = [
      { tabId: 4, title: 'Inbox', takeBack: 'Inbox' },
      { tabId: 7, title: 'Inbox', takeBack: 'Inbox (2)', client: 'Inspector' },
    ];
    const takeBack = vi.fn();
    const roster = new Roster(root, actionSpies(), { of: () => held, takeBack });
    roster.render([view()], false);
    root.querySelector('button')!.click();
    const details = root.nextElementSibling as HTMLElement;
    const tabs = details.querySelector('section.agent-tabs')!;
    expect(tabs.getAttribute('aria-label')).toBe("Demo's tabs");
    const names = [...tabs.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual(['Take back Inbox', 'Take back Inbox (2)']);
    expect(tabs.querySelectorAll('li')[1]!.textContent).toContain('Inspector');
    tabs.querySelectorAll('button')[1]!.click();
    expect(takeBack).toHaveBeenCalledWith(7);
    held = [];
    roster.refreshTabs();
    expect(details.querySelector('section.agent-tabs')!.textContent).toContain('No tab is shared with Demo');
    roster.render([], false);
  });

  it('show an agent that needs signing in with its own badge, and its methods with what to do', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = actionSpies();
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
    expect(chipName(waiting, false)).toBe('Demo: needs sign-in, no browser until connected');
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

  it('caption a sign-in command as the agent’s own text, and offer nothing to press for a refused method', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = actionSpies();
    const roster = new Roster(root, actions);
    const signIn = signInOptions([
      { type: 'terminal', id: 'login', name: 'Log in', _meta: { 'tabwright/terminalCommand': 'agent --login' } },
      { type: 'terminal', id: 'bad', name: 'Quick login', _meta: { 'tabwright/refused': 'The broker will not.' } },
    ]);
    roster.render([view({ status: 'needs_signin', signIn })], false);
    root.querySelector('button')!.click();
    const details = root.nextElementSibling as HTMLElement;
    const [good, bad] = [...details.querySelectorAll('li')];
    expect(good!.querySelector('figure figcaption')!.textContent).toBe(
      'Command as Demo gave it (the agent’s own text: read it before you run it):',
    );
    expect(good!.querySelector('figure pre code')!.textContent).toBe('agent --login');
    expect(bad!.querySelector('.sign-in-refused')!.textContent).toBe('The broker will not.');
    expect(bad!.querySelector('pre, button')).toBeNull();
    roster.render([], false);
  });

  it('show the current mode and model on the chip and switch them from the details', () => {
    const root = document.createElement('nav');
    document.body.append(root);
    const actions = actionSpies();
    const roster = new Roster(root, actions);
    const session = emptySessionState();
    applySessionSetup(session, {
      modes: {
        currentModeId: 'ask',
        availableModes: [
          { id: 'ask', name: 'Ask first' },
          { id: 'auto', name: 'Autopilot' },
        ],
      },
      configOptions: [
        {
          type: 'select',
          id: 'model',
          name: 'Model',
          category: 'model',
          currentValue: 'small',
          options: [
            { value: 'small', name: 'Small model' },
            { value: 'large', name: 'Large model' },
          ],
        },
        { type: 'boolean', id: 'verbose', name: 'Verbose', currentValue: false },
      ],
    });
    roster.render([view({ session })], false);
    const chip = root.querySelector('button')!;
    expect(chip.getAttribute('aria-label')).toBe('Demo: connected, read-only, mode: Ask first, model: Small model');
    expect([...chip.querySelectorAll('.badge.session-choice')].map((badge) => badge.textContent)).toEqual([
      'Ask first',
      'Small model',
    ]);
    chip.click();
    const details = root.nextElementSibling as HTMLElement;
    const mode = details.querySelector<HTMLSelectElement>('select[aria-label="Mode"]')!;
    expect(mode.value).toBe('ask');
    mode.focus();
    mode.value = 'auto';
    mode.dispatchEvent(new Event('change'));
    expect(actions.setMode).toHaveBeenCalledWith('a1', 'auto');
    roster.render([view({ session: { ...session, modeId: 'auto' } })], false);
    expect((document.activeElement as HTMLSelectElement).getAttribute('aria-label')).toBe('Mode');
    const model = details.querySelector<HTMLSelectElement>('select[aria-label="Model"]')!;
    model.value = 'large';
    model.dispatchEvent(new Event('change'));
    expect(actions.setConfigOption).toHaveBeenCalledWith('a1', 'model', 'large');
    const verbose = details.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    verbose.click();
    expect(actions.setConfigOption).toHaveBeenCalledWith('a1', 'verbose', true);
    [...details.querySelectorAll('button')].find((b) => b.textContent === 'End Demo’s session')!.click();
    expect(actions.endSession).toHaveBeenCalledWith('a1');
    roster.render([], false);
  });
});
