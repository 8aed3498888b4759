import { describe, expect, it } from 'vitest';
import { CallerBook } from './caller';

describe('CallerBook', () => {
  it('names the agent itself, and its MCP clients by the broker’s id within the agent’s', () => {
    const book = new CallerBook('agent-1', () => 'Demo');
    expect(book.of({})).toEqual({ id: 'agent-1', label: 'Demo' });
    expect(book.of({ caller: { id: 'c1', label: 'Inspector' } })).toEqual({
      id: 'agent-1/mcp:c1',
      label: 'Inspector',
    });
  });

  it('tells two clients that give the same name apart, and keeps each one’s label', () => {
    const book = new CallerBook('agent-1', () => 'Demo');
    const first = book.of({ caller: { id: 'c1', label: 'Inspector' } });
    const second = book.of({ caller: { id: 'c2', label: 'Inspector' } });
    expect([first.label, second.label]).toEqual(['Inspector', 'Inspector (2)']);
    expect(first.id).not.toBe(second.id);
    expect(book.of({ caller: { id: 'c1', label: 'Renamed' } }).label).toBe('Inspector');
  });
});
