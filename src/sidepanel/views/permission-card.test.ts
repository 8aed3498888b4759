// @vitest-environment jsdom
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import type { PermissionPrompt } from '../../acp/permissions';
import { ChatModel, type AgentItem } from '../chat-model';
import type { SegmentOf } from '../chat-types';
import { permissionCard } from './cards';

/** The request Qwen Code sends: an empty title, its words in `content`, the tool's name in `_meta`. */
function qwenShaped(): PermissionPrompt {
  let settle!: (response: RequestPermissionResponse) => void;
  return {
    id: 'p1',
    tool: '{}',
    request: {
      sessionId: 's',
      toolCall: {
        toolCallId: 'c1',
        title: '{}',
        kind: 'execute',
        status: 'pending',
        content: [
          { type: 'content', content: { type: 'text', text: 'Run the test suite to check the fix.' } },
          { type: 'diff', path: 'src/a.ts', oldText: 'old', newText: 'new' },
        ],
        rawInput: { command: 'npm test' },
        _meta: { toolName: 'run_shell_command' },
      },
      options: [
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    },
    answer: (optionId) =>
      settle(optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } }),
    settled: new Promise((resolve) => (settle = resolve)),
  };
}

function shown(): SegmentOf<'permission'> {
  const chat = new ChatModel(() => 1_000, 'test');
  chat.permission('a1', 'Qwen', qwenShaped());
  const item = chat.items[0] as AgentItem;
  return item.segments[0] as SegmentOf<'permission'>;
}

describe('a permission request from an agent', () => {
  it('is titled by the tool when the agent sent no readable title, with its words, kind and diff', () => {
    const segment = shown();
    expect(segment).toMatchObject({ title: 'run_shell_command', toolKind: 'execute', toolName: 'run_shell_command' });
    const card = permissionCard('Qwen', segment, { awaiting: true, answer: () => undefined });
    expect(card.querySelector('h4')!.textContent).toBe('Qwen asks permission: run_shell_command');
    expect(card.textContent).not.toContain('{}');
    expect(card.querySelector('.permission-tool')!.textContent).toBe('Tool: execute · run_shell_command');
    expect(card.querySelector('pre.tool-output')!.textContent).toBe('Run the test suite to check the fix.');
    expect(card.querySelector('.diff')!.textContent).toContain('+ new');
  });

  it('has one primary button, "allow once", and takes the focus itself rather than on an allow button', () => {
    const card = permissionCard('Qwen', shown(), { awaiting: true, answer: () => undefined });
    document.body.append(card);
    const primary = [...card.querySelectorAll('button.primary')].map((button) => button.textContent);
    expect(primary).toEqual(['Allow once']);
    expect(card.getAttribute('tabindex')).toBe('-1');
    card.focus();
    expect(document.activeElement).toBe(card);
    card.remove();
  });
});
