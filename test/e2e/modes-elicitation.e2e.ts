/**
 * Modes, models and input requests through the real panel, the project's broker and a stdio ACP
 * agent behind its passthrough: what the user switches reaches the agent and changes what it does,
 * what the agent switches shows on its chip, and the agent's questions are answered by the user
 * in the conversation — a form checked before it is sent, a web page opened only when allowed,
 * and Stop cancelling a question still waiting. Removing the agent closes its session at the agent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { addAgentThroughForm, openPanelTab, sendMessage } from './harness';
import { useRig } from './rig';

const TOKEN = 'modes-elicitation-token';
const SCRATCH = mkdtempSync(join(tmpdir(), 'tabwright-agent-events-'));
const EVENTS = join(SCRATCH, 'events.log');
const T = { timeout: 60_000 };

/** What reached the agent, one request per line. */
const events = (): string[] => (existsSync(EVENTS) ? readFileSync(EVENTS, 'utf8').trim().split('\n') : []);

afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

describe('modes, models and input requests', () => {
  const rig = useRig({ token: TOKEN, agentCommand: stdioAgentCommand({ STDIO_AGENT_EVENTS: EVENTS }) });

  it('ends a session from the agent details: the agent hears session/close and the next connect starts anew', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Ender', url: rig.broker.url, token: TOKEN });
    const chip = panel.getByRole('button', { name: /^Ender: connected/ });
    await chip.waitFor(T);
    const closedBefore = events().filter((line) => line.startsWith('session/close')).length;
    await chip.click();
    await panel.getByRole('button', { name: 'End Ender’s session' }).click();
    await expect
      .poll(() => events().filter((line) => line.startsWith('session/close')).length, T)
      .toBe(closedBefore + 1);
    await panel.locator('.notice').filter({ hasText: 'Ender: session ended' }).waitFor(T);
    await panel.getByRole('button', { name: /^Ender: disabled/ }).click();
    await panel.getByRole('button', { name: /^Ender: connected/ }).waitFor(T);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('button', { name: 'Remove Ender' }).click();
    await panel.getByRole('button', { name: 'Yes, remove Ender' }).click();
    await expect.poll(() => panel.getByRole('button', { name: /^Ender:/ }).count(), T).toBe(0);
    await panel.close();
  });

  it('switches modes and models both ways, answers forms and pages, cancels with Stop, closes on removal', async () => {
    const panel = await openPanelTab(rig.launched);
    await addAgentThroughForm(panel, { name: 'Stdio', url: rig.broker.url, token: TOKEN });
    const chip = panel.getByRole('button', { name: /^Stdio: connected/ });
    await chip.waitFor(T);
    // The modes and model the agent gave in session/new reach the chip through the broker.
    await expect.poll(() => chip.getAttribute('aria-label'), T).toMatch(/mode: Chat, model: Swift 1/);
    const replies = panel.locator('article.message.agent.done[aria-busy="false"]');
    // The reply's own words come after any card it holds.
    const lastReply = async () =>
      (await replies.last().locator('.body').innerText()).trim().split('\n').filter(Boolean).at(-1) ?? '';
    const ask = async (text: string) => {
      const before = await replies.count();
      await sendMessage(panel, text);
      await expect.poll(() => replies.count(), T).toBe(before + 1);
      return lastReply();
    };

    // The user switches the mode: the agent hears set_mode and acts in the new mode.
    await chip.click();
    const details = panel.getByRole('region', { name: 'Details of Stdio' });
    await details.getByRole('combobox', { name: 'Mode', exact: true }).selectOption('plan');
    await expect.poll(() => chip.getAttribute('aria-label'), T).toMatch(/mode: Plan only/);
    await expect.poll(() => events().some((line) => /^session\/set_mode \S+ plan$/.test(line)), T).toBe(true);
    expect(await ask('click Count')).toBe('plan: I would click Count');

    // The model likewise, through session/set_config_option.
    await details.getByRole('combobox', { name: 'Model', exact: true }).selectOption('deep-2');
    await expect.poll(() => chip.getAttribute('aria-label'), T).toMatch(/model: Deep 2/);
    expect(events()).toContainEqual(expect.stringMatching(/^session\/set_config_option \S+ model=deep-2$/));
    expect(await ask('whoami')).toBe('mode: plan; model: deep-2');

    // The agent switches its own mode: the chip, the details and the conversation say so.
    expect(await ask('mode chat')).toBe('switched myself to chat');
    await expect.poll(() => chip.getAttribute('aria-label'), T).toMatch(/mode: Chat,/);
    await expect.poll(() => details.getByRole('combobox', { name: 'Mode', exact: true }).inputValue(), T).toBe('chat');
    expect(await panel.locator('.notice').filter({ hasText: 'Stdio switched to mode “Chat”.' }).count()).toBe(1);

    // A request still waiting is pinned above the conversation; once answered it is back in it.
    const pinnedRequest = (name: string) => panel.locator('.pinned-requests').getByRole('group', { name });

    // A form: its text is shown as text, focus lands in it, nothing leaves until it is valid.
    const before = await replies.count();
    await sendMessage(panel, 'elicit');
    const form = panel.getByRole('group', { name: 'Stdio asks for input' }).last();
    await form.waitFor(T);
    expect(await form.locator('.elicit-message').textContent()).toBe('Where should the report go? <b>not bold</b>');
    expect(await form.locator('b').count()).toBe(0);
    const email = form.getByRole('textbox', { name: /^Email/ });
    await expect.poll(() => email.evaluate((input) => input === document.activeElement), T).toBe(true);
    await email.fill('not-an-address');
    await form.getByRole('textbox', { name: /^Copies/ }).fill('9');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('Enter an email address, such as name@example.com.').waitFor();
    await form.getByText('At most 5.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => email.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(events().filter((line) => line.startsWith('elicitation/create'))).toEqual([]);
    await email.fill('me@example.com');
    await form.getByRole('checkbox', { name: 'Urgent' }).check();
    await form.getByRole('combobox', { name: /^Format/ }).selectOption('pdf');
    const copies = form.getByRole('textbox', { name: /^Copies/ });
    await copies.fill('2');
    await copies.press('Enter');
    await expect.poll(() => replies.count(), T).toBe(before + 1);
    expect(await lastReply()).toBe('elicit: accept {"email":"me@example.com","copies":2,"urgent":true,"format":"pdf"}');
    await form.getByRole('status').filter({ hasText: 'Sent.' }).waitFor();

    // Escape dismisses a form: the agent hears `cancel`.
    await sendMessage(panel, 'elicit');
    const second = pinnedRequest('Stdio asks for input');
    await second.getByRole('textbox', { name: /^Email/ }).waitFor(T);
    await second.getByRole('textbox', { name: /^Email/ }).press('Escape');
    await expect.poll(lastReply, T).toBe('elicit: cancel');

    // A web page: the whole address is shown as text; declining opens nothing.
    const pagesBefore = rig.launched.context.pages().length;
    const refused = 'https://sign-in.example.test/start?session=1&next=%2Fhome';
    await sendMessage(panel, `visit ${refused}`);
    const page = panel.getByRole('group', { name: 'Stdio asks you to open a web page' }).last();
    await page.waitFor(T);
    expect(await page.locator('.elicit-address').textContent()).toBe(refused);
    expect(await page.locator('a').count()).toBe(0);
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(lastReply, T).toBe('visit: decline');
    expect(rig.launched.context.pages().length).toBe(pagesBefore);

    // A look-alike address: the host in plain letters, its Unicode form only beside it, marked.
    await sendMessage(panel, 'visit https://g\u043e\u043egle.com/signin');
    const lookAlike = pinnedRequest('Stdio asks you to open a web page');
    await lookAlike.locator('.elicit-unicode').waitFor(T);
    expect(await lookAlike.locator('.elicit-address').textContent()).toBe('https://xn--ggle-55da.com/signin');
    const unicode = await lookAlike.locator('.elicit-unicode.warning').textContent();
    expect(unicode).toContain('g\u043e\u043egle.com');
    expect(unicode).toContain('imitate another site');
    await lookAlike.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => events().filter((line) => line === 'elicitation/create url decline').length, T).toBe(2);

    // Agreeing opens it in a new tab.
    const wanted = rig.fixtures.url('/index.html?signed-in=1');
    await sendMessage(panel, `visit ${wanted}`);
    const open = pinnedRequest('Stdio asks you to open a web page');
    const opened = rig.launched.context.waitForEvent('page', T);
    await open.getByRole('button', { name: 'Open in a new tab' }).click();
    const tab = await opened;
    await expect.poll(() => tab.url(), T).toBe(wanted);
    await expect.poll(lastReply, T).toBe('visit: accept');
    await tab.close();

    // Stop answers a question still waiting with `cancel`.
    await sendMessage(panel, 'elicit');
    const waiting = pinnedRequest('Stdio asks for input');
    await waiting.getByRole('button', { name: 'Submit' }).waitFor(T);
    await panel.getByRole('button', { name: 'Stop' }).click();
    const cancelled = panel.locator('#transcript').getByRole('group', { name: 'Stdio asks for input' }).last();
    await cancelled.getByRole('status').filter({ hasText: 'No answer: the request was cancelled.' }).waitFor(T);
    await expect.poll(() => events().filter((line) => line === 'elicitation/create form cancel').length, T).toBe(2);

    // Removing the agent closes its session at the agent, through the broker.
    await expect.poll(() => chip.getAttribute('aria-label'), T).not.toMatch(/replying/);
    const closedBefore = events().filter((line) => line.startsWith('session/close')).length;
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('button', { name: 'Remove Stdio' }).click();
    await panel.getByRole('button', { name: 'Yes, remove Stdio' }).click();
    await expect
      .poll(() => events().filter((line) => line.startsWith('session/close')).length, T)
      .toBe(closedBefore + 1);
    await panel.close();
  });
});
