/**
 * Inline, keyboard-operable prompts: write confirmations from the gates and permission requests
 * from agents. Each waits for the user's choice; a confirmation nobody answers in time is a denial.
 */
import type { PermissionPrompt } from '../../acp/permissions';
import type { ConfirmAnswer, ConfirmRequest } from '../../mcp-server/gates/types';
import { h } from '../dom';
import { t } from '../i18n';

export class PromptTray {
  constructor(private readonly root: HTMLElement) {}

  confirm(request: ConfirmRequest, timeoutMs: number, signal: AbortSignal): Promise<ConfirmAnswer> {
    return new Promise<ConfirmAnswer>((resolve) => {
      const finish = (answer: ConfirmAnswer) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        card.remove();
        resolve(answer);
      };
      const onAbort = () => finish('deny');
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      const headingId = `confirm-${Math.random().toString(36).slice(2)}`;
      const card = h(
        'section',
        { className: 'prompt confirmation', role: 'alertdialog', 'aria-labelledby': headingId },
        h(
          'h3',
          { id: headingId },
          t('confirmHeading', request.agentName, `${request.server}.${request.tool}`, request.origin),
        ),
        h('pre', { className: 'args' }, JSON.stringify(request.args, null, 2)),
        h(
          'div',
          { className: 'actions' },
          h('button', { type: 'button', className: 'primary', onclick: () => finish('once') }, t('allowOnce')),
          h('button', { type: 'button', onclick: () => finish('site') }, t('allowForSite')),
          h('button', { type: 'button', className: 'danger', onclick: () => finish('deny') }, t('deny')),
        ),
      );
      this.root.append(card);
      card.querySelector<HTMLButtonElement>('button')?.focus();
    });
  }

  permission(agentName: string, prompt: PermissionPrompt): void {
    const headingId = `permission-${prompt.id}`;
    const card = h(
      'section',
      { className: 'prompt permission', role: 'alertdialog', 'aria-labelledby': headingId },
      h('h3', { id: headingId }, `${agentName}: ${prompt.request.toolCall.title ?? prompt.tool}`),
      h(
        'div',
        { className: 'actions' },
        ...prompt.request.options.map((option) =>
          h(
            'button',
            {
              type: 'button',
              className: option.kind.startsWith('allow') ? 'primary' : 'danger',
              onclick: () => prompt.answer(option.optionId),
            },
            option.name,
          ),
        ),
      ),
    );
    void prompt.settled.then(() => card.remove());
    this.root.append(card);
    card.querySelector<HTMLButtonElement>('button')?.focus();
  }
}
