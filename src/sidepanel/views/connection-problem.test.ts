// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../acp/agent-connection';
import { AgentProfile } from '../../shared/settings';
import type { AgentView } from '../agent-hub';
import { emptySessionState } from '../session-state';
import { admitCommand, ConnectionProblems, withAcpPath } from './connection-problem';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const view = (status: ConnectionStatus, fields: Partial<AgentView> = {}): AgentView => ({
  profile: AgentProfile.parse({ id: 'a1', name: 'Demo', url: 'ws://127.0.0.1:8765/acp' }),
  status,
  detail: undefined,
  extensionId: undefined,
  busy: false,
  pending: 0,
  session: emptySessionState(),
  signIn: [],
  agentInfoName: undefined,
  ...fields,
});
const actions = () => ({ edit: vi.fn(), reconnect: vi.fn(), copy: vi.fn(() => Promise.resolve()) });

describe('connection problems', () => {
  it('say each cause in words, with what to do', () => {
    const problems = new ConnectionProblems(actions());
    const said = (status: ConnectionStatus, fields: Partial<AgentView> = {}) => {
      problems.render([view(status, fields)]);
      return problems.element.textContent;
    };
    expect(said('auth_failed')).toContain('refused the token');
    expect(said('not_admitted', { extensionId: ID })).toContain(`npm run broker -- --extension-id ${ID}`);
    const wrongPath = view('wrong_path');
    wrongPath.profile.url = 'ws://127.0.0.1:8765/wrong?x=1';
    problems.render([wrongPath]);
    expect(problems.element.textContent).toContain('Change the broker URL to ws://127.0.0.1:8765/acp.');
    expect(said('not_broker')).toContain('is not an ACP broker');
    expect(said('rejected')).toContain('if it is OpenAB, check the token');
    expect(said('unreachable')).toContain('Nothing is listening at ws://127.0.0.1:8765/acp. Is the broker running?');
    // The command is code, not words between backticks.
    expect(problems.element.querySelector('code')!.textContent).toBe('npm run broker');
    expect(problems.element.textContent).not.toContain('`');
    for (const status of ['connected', 'connecting', 'disabled', 'needs_signin', 'refused'] as const) {
      problems.render([view(status)]);
      expect(problems.element.hidden).toBe(true);
    }
    problems.render([view('unreachable', { profile: { ...view('x' as never).profile, enabled: false } })]);
    expect(problems.element.hidden).toBe(true);
  });

  it('copies the admit line, and keeps a note in place while its cause holds', async () => {
    const spies = actions();
    const problems = new ConnectionProblems(spies);
    problems.render([view('not_admitted', { extensionId: ID })]);
    const note = problems.element.firstElementChild;
    const copy = problems.element.querySelector<HTMLButtonElement>('button.copy-command')!;
    expect(copy.getAttribute('aria-label')).toBe('Copy the command');
    copy.click();
    expect(spies.copy).toHaveBeenCalledWith(admitCommand(ID));
    await vi.waitFor(() => expect(copy.textContent).toBe('Copied'));
    problems.render([view('not_admitted', { extensionId: ID, busy: true })]);
    expect(problems.element.firstElementChild).toBe(note);
    [...problems.element.querySelectorAll('button')].find((b) => b.textContent === 'Edit Demo')!.click();
    expect(spies.edit).toHaveBeenCalledWith('a1');
    problems.render([view('connected')]);
    expect(problems.element.childElementCount).toBe(0);
  });

  it('puts /acp in place of any other path', () => {
    expect(withAcpPath('wss://broker.example:9000/x/y?q#f')).toBe('wss://broker.example:9000/acp');
    expect(withAcpPath('not a url')).toBe('not a url');
  });
});
