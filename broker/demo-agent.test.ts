import { describe, expect, it } from 'vitest';
import { COMMANDS, demoSlashCommands, helpText, runDemoTurn, type TurnIO } from './demo-agent';
import { findLines, findRefByName, parseTypeCommand } from './demo-commands/browser';
import { ASK_OPTIONS, parseStreamCommand } from './demo-commands/robustness';

function recordingIO(overrides: Partial<TurnIO> = {}) {
  const said: string[] = [];
  const controller = new AbortController();
  const io: TurnIO = {
    signal: controller.signal,
    say: async (markdown) => void said.push(markdown),
    browser: () => undefined,
    servers: () => [],
    callTool: async () => ({ content: [] }),
    ask: async () => ({ outcome: { outcome: 'cancelled' } }),
    ...overrides,
  };
  return { io, said, controller };
}

describe('the demo agent’s command table', () => {
  it('help lists every command with its usage, and nothing it lacks', () => {
    const help = helpText();
    for (const command of Object.values(COMMANDS)) expect(help).toContain(`\`${command.usage}\` — ${command.summary}`);
    const listed = [...help.matchAll(/^- `(\w+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(COMMANDS));
    for (const name of ['help', 'snapshot', 'find', 'click', 'type', 'tabs', 'downloads', 'stream', 'ask']) {
      expect(COMMANDS).toHaveProperty(name);
    }
  });

  it('every command’s usage starts with its own name', () => {
    for (const [name, command] of Object.entries(COMMANDS)) expect(command.usage.split(' ')[0]).toBe(name);
  });

  it('echoes what it does not understand, and does not mistake Object.prototype for commands', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn('  hello there ', io);
    await runDemoTurn('constructor', io);
    await runDemoTurn('/nonsense here', io);
    expect(said).toEqual(['You said: hello there', 'You said: constructor', 'You said: /nonsense here']);
  });

  it('offers every command as a slash command, with what it takes as the hint, and runs one picked with its slash', async () => {
    const offered = demoSlashCommands();
    expect(offered.map((command) => command.name)).toEqual(Object.keys(COMMANDS));
    expect(offered.find((command) => command.name === 'help')).toEqual({ name: 'help', description: 'this list' });
    expect(offered.find((command) => command.name === 'tickets')?.input).toEqual({ hint: '[open|closed|all]' });
    const { io, said } = recordingIO();
    await runDemoTurn('/help', io);
    expect(said).toEqual([helpText()]);
  });

  it('says so when the panel gave it no browser tools', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn('click Count', io);
    expect(said.join('')).toMatch(/did not give me browser tools/);
  });
});

describe('snapshot helpers', () => {
  const snapshot = [
    '<untrusted origin="http://127.0.0.1:1">',
    '- heading "Orders" [level=1]',
    '- button "Count" [e3]',
    '- button "Count again" [e4]',
    '- textbox "Your name" [e7]',
    '- link "Second page" [e9]',
    '</untrusted>',
  ].join('\n');

  it('finds a ref by exact name first, then by part', () => {
    expect(findRefByName(snapshot, 'count')).toBe('e3');
    expect(findRefByName(snapshot, 'again')).toBe('e4');
    expect(findRefByName(snapshot, 'name')).toBe('e7');
    expect(findRefByName(snapshot, 'missing')).toBeUndefined();
  });

  it('finds element lines that mention a text, never the wrapper', () => {
    expect(findLines(snapshot, 'count')).toEqual(['- button "Count" [e3]', '- button "Count again" [e4]']);
    expect(findLines(snapshot, 'untrusted')).toEqual([]);
  });
});

describe('command arguments', () => {
  it('splits `type` at the last " into "', () => {
    expect(parseTypeCommand('Ada into Your name')).toEqual({ text: 'Ada', target: 'Your name' });
    expect(parseTypeCommand('"log into site" into Search')).toEqual({ text: 'log into site', target: 'Search' });
    expect(parseTypeCommand('hello')).toBeUndefined();
    expect(parseTypeCommand('into Search')).toBeUndefined();
  });

  it('reads `stream <n> [delayMs] [label]` and refuses nonsense', () => {
    expect(parseStreamCommand('5')).toEqual({ lines: 5, delayMs: 250, label: '' });
    expect(parseStreamCommand('40 25 mid-1')).toEqual({ lines: 40, delayMs: 25, label: 'mid-1' });
    expect(parseStreamCommand('3 slow one')).toEqual({ lines: 3, delayMs: 250, label: 'slow one' });
    expect(parseStreamCommand('0')).toMatch(/stream <n>/);
    expect(parseStreamCommand('x')).toMatch(/stream <n>/);
    expect(parseStreamCommand('20000')).toMatch(/stream <n>/);
    expect(parseStreamCommand('2 9999999')).toMatch(/delay/);
  });

  it('streams numbered lines and stops when the turn is cancelled', async () => {
    const { io, said, controller } = recordingIO();
    await runDemoTurn('stream 3 0', io);
    expect(said).toEqual(['Line 1 of 3\n', 'Line 2 of 3\n', 'Line 3 of 3\n']);
    said.length = 0;
    const slow = runDemoTurn('stream 100 20', io);
    await new Promise((r) => setTimeout(r, 70));
    controller.abort();
    await slow;
    expect(said.length).toBeGreaterThan(0);
    expect(said.length).toBeLessThan(100);
  });

  it('asks with the four permission kinds and reports the answer', async () => {
    let asked: unknown;
    const { io, said } = recordingIO({
      ask: async (title, options) => {
        asked = { title, kinds: options.map((option) => option.kind) };
        return { outcome: { outcome: 'selected', optionId: 'reject_always' } };
      },
    });
    await runDemoTurn('ask Shall I go on?', io);
    expect(asked).toEqual({
      title: 'Shall I go on?',
      kinds: ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
    });
    expect(said.join('')).toBe('You answered: **Reject always** (`reject_always`).');
    expect(ASK_OPTIONS.map((option) => option.optionId)).toEqual(ASK_OPTIONS.map((option) => option.kind));
  });
});

describe('the demo agent in a room', () => {
  it('mention addresses another agent', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn('mention Beta what do you think?', io);
    expect(said.join('')).toBe('@Beta what do you think?');
  });

  it('bounce goes to the named agent, and a relayed bounce goes back to its sender', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn('bounce Beta', io);
    await runDemoTurn('<message from="Beta">\n@Alpha bounce\n</message>', io);
    expect(said).toEqual(['@Beta bounce', '@Beta bounce']);
  });

  it('answers each relayed message of a batch, then what the human added', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn(
      '<message from="A">\n@Me hello\n</message>\n\n<message from="B" partial="true">\n@Me there\n</message>\n\nand you',
      io,
    );
    expect(said).toEqual(['You said: hello', 'You said: there', 'You said: and you']);
  });
});

describe('the demo agent addressed by name', () => {
  it('reads "@Name command" as the command', async () => {
    const { io, said } = recordingIO();
    await runDemoTurn('@Alpha bounce Beta', io);
    await runDemoTurn('@Alpha, hello', io);
    expect(said).toEqual(['@Beta bounce', 'You said: hello']);
  });
});
