// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { AgentItem } from '../chat-types';
import { AgentMessageView, type MessageContext } from './message-view';

const context: MessageContext = {
  isQueued: () => false,
  isAwaitingAnswer: () => false,
  answer: () => undefined,
  answerElicitation: () => undefined,
  openUrl: async () => undefined,
  pin: () => undefined,
  applyFix: () => undefined,
  dirty: (renderer) => renderer.flush(true),
};

function item(overrides: Partial<AgentItem> = {}): AgentItem {
  return {
    kind: 'agent',
    id: 'm1',
    at: 1_000,
    agentId: 'a1',
    agentName: 'Demo',
    segments: [{ kind: 'text', id: 's1', text: 'Hello' }],
    done: true,
    ...overrides,
  };
}

describe('AgentMessageView', () => {
  it('shows the reply state only while replying, and a footer only when there is something to say', () => {
    const view = new AgentMessageView(item({ done: false }), context);
    expect(view.element.querySelector('header .reply-state')!.textContent).toBe('replying…');
    expect(view.element.querySelector('.reply-footer')).toBeNull();

    view.update(item({ stopReason: 'cancelled' }));
    expect(view.element.querySelector('.reply-state')).toBeNull();
    const footer = view.element.querySelector('.reply-footer')!;
    expect(footer.textContent).toBe('Stopped.');
    expect(footer.previousElementSibling!.className).toBe('body');

    view.update(item());
    expect(view.element.querySelector('.reply-footer')).toBeNull();
    expect([...view.element.children].map((child) => child.tagName)).toEqual(['HEADER', 'DIV']);
    expect(view.element.querySelector('header .copy-message')).not.toBeNull();
  });

  it('says so when a finished reply is empty', () => {
    const view = new AgentMessageView(item({ segments: [] }), context);
    expect(view.element.querySelector('.reply-footer')!.textContent).toBe('The agent finished without a reply.');
  });
});
