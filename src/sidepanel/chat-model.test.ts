import type { RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { ElicitationBroker } from '../acp/elicitation';
import type { PermissionPrompt } from '../acp/permissions';
import { ChatModel, type AgentItem, type ChatChange } from './chat-model';
import { messageText } from './chat-types';
import { applySessionState, emptySessionState, usagePercent } from './session-state';

function model() {
  const chat = new ChatModel(() => 1_000, 'test');
  const changes: ChatChange[] = [];
  chat.subscribe((change) => changes.push(change));
  const apply = (...updates: SessionUpdate[]) => updates.forEach((u) => chat.applyUpdate('a1', 'Demo', u));
  const reply = () => chat.items.find((item): item is AgentItem => item.kind === 'agent')!;
  return { chat, changes, apply, reply };
}

const text = (t: string, messageId?: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text: t },
  ...(messageId ? { messageId } : {}),
});

describe('ChatModel replies', () => {
  it('streams text into one segment and reports each delta', () => {
    const { apply, reply, changes } = model();
    apply(text('Hel'), text('lo'));
    expect(reply().segments).toEqual([{ kind: 'text', id: expect.any(String), text: 'Hello' }]);
    expect(changes.filter((c) => c.type === 'text').map((c) => (c as { delta: string }).delta)).toEqual(['lo']);
  });

  it('keeps the order of text, thoughts and tool calls, and starts a new segment per messageId', () => {
    const { apply, reply } = model();
    apply(
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'thinking' } },
      text('Looking.', 'm1'),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read file', kind: 'read', status: 'in_progress' },
      text('Found it.', 'm1'),
      text('Second message.', 'm2'),
    );
    expect(reply().segments.map((s) => s.kind)).toEqual(['thought', 'text', 'tool', 'text', 'text']);
    expect(messageText(reply())).toBe('Looking.\n\nFound it.\n\nSecond message.');
  });

  it('updates tool calls in place: status, title, content replaced, raw input and output', () => {
    const { apply, reply } = model();
    apply(
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'snapshot', rawInput: { selector: 'main' } },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: 'first' } },
          { type: 'diff', path: 'a.ts', oldText: 'x', newText: 'y' },
        ],
        rawOutput: { ok: true },
        locations: [{ path: 'a.ts', line: 3 }],
      },
    );
    const [segment] = reply().segments;
    expect(segment).toMatchObject({
      kind: 'tool',
      call: {
        id: 't1',
        title: 'snapshot',
        status: 'completed',
        input: '{\n  "selector": "main"\n}',
        output: '{\n  "ok": true\n}',
        locations: [{ path: 'a.ts', line: 3 }],
        content: [
          { type: 'text', text: 'first' },
          { type: 'diff', path: 'a.ts', oldText: 'x', newText: 'y' },
        ],
      },
    });
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 't1', content: [] });
    expect(reply().segments).toHaveLength(1);
    expect((reply().segments[0] as { call: { content: unknown[] } }).call.content).toEqual([]);
  });

  it('shows a card for an update to a tool call it never saw announced', () => {
    const { apply, reply } = model();
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'failed' });
    expect(reply().segments[0]).toMatchObject({
      kind: 'tool',
      call: { id: 'ghost', title: 'Tool call', status: 'failed' },
    });
  });

  it('replaces the whole plan within a reply, and plans by id are updated and removed', () => {
    const { apply, reply } = model();
    const entry = (content: string, status: 'pending' | 'completed') => ({
      content,
      status,
      priority: 'medium' as const,
    });
    apply({ sessionUpdate: 'plan', entries: [entry('one', 'pending')] });
    apply({ sessionUpdate: 'plan', entries: [entry('one', 'completed'), entry('two', 'pending')] });
    expect(reply().segments).toHaveLength(1);
    expect(reply().segments[0]).toMatchObject({ kind: 'plan', entries: [{ status: 'completed' }, { content: 'two' }] });
    apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: '# Steps' } });
    apply({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [entry('a', 'pending')] } });
    const byId = reply().segments[1]!;
    expect(byId).toMatchObject({ kind: 'plan', planId: 'p1', entries: [{ content: 'a' }] });
    expect('markdown' in byId).toBe(false);
    apply({ sessionUpdate: 'plan_removed', planId: 'p1' });
    expect(reply().segments.map((s) => s.kind)).toEqual(['plan']);
  });

  it('turns notices into notices with their severity, prefixed with the agent', () => {
    const { chat, apply } = model();
    apply({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' });
    apply({ sessionUpdate: 'notice', severity: 'something-new', title: 'FYI' });
    expect(chat.items).toMatchObject([
      { kind: 'notice', text: 'Demo: Rate limited', detail: 'Retrying in 5 s', severity: 'warning' },
      { kind: 'notice', text: 'Demo: FYI', severity: 'info' },
    ]);
  });

  it('collects compaction summaries, sub-agents and messages between sessions', () => {
    const { apply, reply } = model();
    apply(
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'So far: ' } },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'a lot.' } },
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
      { sessionUpdate: 'subagent_update', sessionId: 's2', title: 'Researcher', state: { state: 'running' } },
      { sessionUpdate: 'subagent_update', sessionId: 's2', state: { state: 'idle', stopReason: 'end_turn' } },
      { sessionUpdate: 'session_message_chunk', messageId: 'r1', content: { type: 'text', text: 'from ' } },
      { sessionUpdate: 'session_message_chunk', messageId: 'r1', content: { type: 'text', text: 'a peer' } },
    );
    expect(reply().segments).toMatchObject([
      { kind: 'compaction', status: 'completed', summary: 'So far: a lot.' },
      { kind: 'subagent', title: 'Researcher', state: 'idle' },
      { kind: 'relay', text: 'from a peer' },
    ]);
  });

  it('shows raster images, refuses SVG as an image, and keeps links and resources as data', () => {
    const { apply, reply } = model();
    apply(
      { sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' } },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'resource_link', uri: 'https://x.example/a', name: 'a' },
      },
    );
    expect(reply().segments.map((s) => (s.kind === 'media' ? s.media.type : s.kind))).toEqual([
      'image',
      'resource',
      'link',
    ]);
  });

  it('shows a loaded session replaying the user side as user messages', () => {
    const { chat, apply } = model();
    apply({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'earlier ' } });
    apply({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'question' } });
    apply(text('earlier answer'));
    expect(chat.items).toMatchObject([
      { kind: 'user', text: 'earlier question', replayedBy: 'Demo' },
      { kind: 'agent', segments: [{ text: 'earlier answer' }] },
    ]);
    expect(chat.lastUser()).toBeUndefined();
  });

  it('ends a turn with its stop reason or error, and a new update starts a new reply', () => {
    const { chat, apply } = model();
    apply(text('one'));
    chat.endTurn('a1', { stopReason: 'cancelled' });
    chat.endTurn('a1', { error: 'no reply at all' });
    apply(text('two'));
    expect(chat.items).toMatchObject([
      { kind: 'agent', done: true, stopReason: 'cancelled' },
      { kind: 'notice', text: 'no reply at all', severity: 'error' },
      { kind: 'agent', done: false },
    ]);
  });

  it('marks a reply interrupted when its connection drops, and goes on in the same reply if the agent does', () => {
    const { chat, apply, reply, changes } = model();
    apply(text('one '));
    chat.interruptTurn('a1');
    expect(reply()).toMatchObject({ done: false, interrupted: true });
    expect(changes.at(-1)).toMatchObject({ type: 'updated' });
    apply(text('two'));
    expect(chat.items).toHaveLength(1);
    expect(reply()).toMatchObject({ done: false, interrupted: false });
    expect(messageText(reply())).toBe('one two');
  });

  it('ends an interrupted reply that cannot go on with its error, and the next run is a reply of its own', () => {
    const { chat, apply } = model();
    apply(text('half a reply'));
    chat.interruptTurn('a1');
    chat.endTurn('a1', { error: 'cut off' });
    chat.startTurn('a1', 'Demo');
    apply(text('again'));
    expect(chat.items).toMatchObject([
      { kind: 'agent', done: true, error: 'cut off' },
      { kind: 'agent', done: false },
    ]);
    expect(chat.items[0]).not.toHaveProperty('interrupted');
  });
});

describe('ChatModel messages, permissions and history', () => {
  it('keeps a message queued while any outbox reports it, and announces each change', () => {
    const { chat, changes } = model();
    const message = chat.addUser('hi both', ['a1', 'a2']);
    expect(chat.isQueued(message.id)).toBe(false);
    chat.setQueue('a1', [message.id]);
    chat.setQueue('a2', [message.id]);
    expect(chat.queue()).toEqual({ a1: [message.id], a2: [message.id] });
    chat.setQueue('a1', []);
    expect(chat.queued()).toEqual([message]);
    chat.setQueue('a2', []);
    expect(chat.queued()).toEqual([]);
    expect(chat.queue()).toEqual({});
    // One announcement per agent that took it or got it, none for a report that changed nothing.
    chat.setQueue('a2', []);
    expect(changes.filter((c) => c.type === 'updated')).toHaveLength(4);
    expect(chat.lastUser()).toBe(message);
  });

  it('clears the screen but keeps what is still queued', () => {
    const { chat, apply } = model();
    chat.addUser('sent', ['a1']);
    apply(text('reply'));
    const waiting = chat.addUser('waiting', ['a1']);
    chat.setQueue('a1', [waiting.id]);
    chat.clear();
    expect(chat.items).toEqual([waiting]);
    expect(chat.isQueued(waiting.id)).toBe(true);
  });

  it('shows a permission request inline and records the answer by option name', async () => {
    const { chat, reply } = model();
    let resolve!: (response: RequestPermissionResponse) => void;
    const answers: Array<string | null> = [];
    const prompt: PermissionPrompt = {
      id: 'p1',
      tool: 'Edit file',
      request: {
        sessionId: 's',
        toolCall: { toolCallId: 't1', title: 'Edit file', rawInput: { path: 'a.ts' } },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      },
      answer: (optionId) => {
        answers.push(optionId);
        resolve(optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } });
      },
      settled: new Promise((r) => (resolve = r)),
    };
    const awaitingWhenShown: boolean[] = [];
    chat.subscribe((change) => {
      if (change.type === 'segment') awaitingWhenShown.push(chat.isAwaitingAnswer(change.segment.id));
    });
    chat.permission('a1', 'Demo', prompt);
    expect(awaitingWhenShown).toEqual([true]);
    const segment = reply().segments[0]!;
    expect(segment).toMatchObject({ kind: 'permission', title: 'Edit file', input: '{\n  "path": "a.ts"\n}' });
    expect(chat.isAwaitingAnswer(segment.id)).toBe(true);
    chat.answerPermission(segment.id, 'no');
    await prompt.settled;
    await Promise.resolve();
    expect(answers).toEqual(['no']);
    expect(segment).toMatchObject({ outcome: { chosen: 'Reject', optionId: 'no', kind: 'reject_once' } });
    expect(chat.isAwaitingAnswer(segment.id)).toBe(false);
    expect(awaitingWhenShown).toEqual([true, false]);
  });

  it('restores stored items as finished, with unanswered permission requests cancelled', () => {
    const { chat } = model();
    chat.restore([
      {
        kind: 'agent',
        id: 'a-old-1',
        at: 1,
        agentId: 'a1',
        agentName: 'Demo',
        done: false,
        segments: [{ kind: 'permission', id: 's-old-1', title: 'x', options: [] }],
      },
    ]);
    expect(chat.items[0]).toMatchObject({ done: true, segments: [{ outcome: { cancelled: true } }] });
    expect(chat.hasItemsFrom('a1')).toBe(true);
    chat.applyUpdate('a1', 'Demo', text('new'));
    expect(chat.items).toHaveLength(2);
  });
});

describe('session state', () => {
  it('keeps commands, mode, config, title and usage; leaves message updates alone', () => {
    const state = emptySessionState();
    expect(
      applySessionState(state, {
        sessionUpdate: 'available_commands_update',
        availableCommands: [{ name: '/review', description: 'Review the diff', input: { hint: 'branch' } }],
      }),
    ).toBe('commands');
    applySessionState(state, { sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
    applySessionState(state, {
      sessionUpdate: 'config_option_update',
      configOptions: [
        {
          type: 'select',
          id: 'model',
          name: 'Model',
          currentValue: 'fast',
          options: [{ value: 'fast', name: 'Fast model' }],
        },
        { type: 'boolean', id: 'web', name: 'Web search', currentValue: true },
      ],
    });
    applySessionState(state, { sessionUpdate: 'session_info_update', title: 'Fix the build' });
    applySessionState(state, {
      sessionUpdate: 'usage_update',
      used: 50_000,
      size: 200_000,
      cost: { amount: 0.12, currency: 'USD' },
    });
    expect(state).toEqual({
      commands: [{ name: 'review', description: 'Review the diff', hint: 'branch' }],
      modeId: 'plan',
      modes: [],
      config: [
        {
          id: 'model',
          name: 'Model',
          value: 'Fast model',
          control: { type: 'select', current: 'fast', choices: [{ value: 'fast', name: 'Fast model' }] },
        },
        { id: 'web', name: 'Web search', value: 'on', control: { type: 'boolean', current: true } },
      ],
      title: 'Fix the build',
      usage: { used: 50_000, size: 200_000, cost: { amount: 0.12, currency: 'USD' } },
    });
    expect(usagePercent(state.usage!)).toBe(25);
    expect(applySessionState(state, text('hi'))).toBeUndefined();
  });
});

describe('input requests', () => {
  it('show a form inline, record only how it was answered, and come back cancelled from history', async () => {
    const chat = new ChatModel(() => 0, 't');
    const broker = new ElicitationBroker((prompt) => chat.elicitation('a1', 'Alpha', prompt));
    const answered = broker.ask({
      sessionId: 's1',
      mode: 'form',
      message: 'How many?',
      requestedSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
    });
    const item = chat.items[0] as AgentItem;
    const segment = item.segments[0]!;
    expect(segment).toMatchObject({
      kind: 'elicitation',
      message: 'How many?',
      mode: 'form',
      fields: [{ name: 'n', kind: 'number', integer: true, minimum: 1, required: true }],
    });
    expect(chat.isAwaitingAnswer(segment.id)).toBe(true);
    chat.answerElicitation(segment.id, { action: 'accept', content: { n: 3 } });
    expect(await answered).toEqual({ action: 'accept', content: { n: 3 } });
    await Promise.resolve();
    expect(chat.isAwaitingAnswer(segment.id)).toBe(false);
    expect(segment).toMatchObject({ outcome: { action: 'accept' } });
    expect(JSON.stringify(chat.items)).not.toContain('"n":3');

    void broker.ask({ sessionId: 's1', mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://x.test/' });
    void broker.ask({ sessionId: 's1', mode: 'telepathy', message: '?' } as never);
    const [, url, odd] = item.segments;
    expect(url).toMatchObject({ kind: 'elicitation', mode: 'url', url: 'https://x.test/' });
    expect(odd).toMatchObject({ problem: { key: 'elicitUnsupportedMode', args: ['telepathy'] } });
    const restored = new ChatModel(() => 0, 'r');
    restored.restore(JSON.parse(JSON.stringify(chat.items)) as never);
    const back = (restored.items[0] as AgentItem).segments;
    expect(back.map((s) => (s.kind === 'elicitation' ? s.outcome?.action : undefined))).toEqual([
      'accept',
      'cancel',
      'cancel',
    ]);
  });
});

describe('ChatModel fixes for refused calls', () => {
  it('puts the fix in the reply under way, once while it waits, and again once it was made', () => {
    const { chat, apply, reply } = model();
    chat.startTurn('a1', 'Demo');
    apply(text('Clicking.'));
    chat.offerFix('a1', 'Demo', { kind: 'act-mode' }, 'click');
    chat.offerFix('a1', 'Demo', { kind: 'act-mode' }, 'click');
    const fixes = () => reply().segments.filter((segment) => segment.kind === 'fix');
    expect(fixes()).toEqual([{ kind: 'fix', id: expect.any(String), fix: { kind: 'act-mode' }, tool: 'click' }]);
    chat.fixDone(fixes()[0]!.id);
    expect(fixes()[0]).toMatchObject({ applied: true });
    chat.offerFix('a1', 'Demo', { kind: 'act-mode' }, 'click');
    expect(fixes()).toHaveLength(2);
  });

  it('stands on its own, finished, when the agent is not replying', () => {
    const { chat } = model();
    chat.offerFix('a1', 'Demo', { kind: 'allow-site', origin: 'http://127.0.0.1:8090' }, 'snapshot');
    expect(chat.items).toEqual([
      expect.objectContaining({ kind: 'agent', agentId: 'a1', agentName: 'Demo', done: true }),
    ]);
    expect(chat.isStreaming('a1')).toBe(false);
    chat.fixDone((chat.items[0] as AgentItem).segments[0]!.id, 'Chrome did not grant access.');
    expect((chat.items[0] as AgentItem).segments[0]).toMatchObject({ problem: 'Chrome did not grant access.' });
  });
});
