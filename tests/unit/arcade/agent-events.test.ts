import { describe, expect, it } from 'vitest';
import { AgentEvents } from '../../../src/core/arcade/agent-events.ts';
import type { AgentEvent, AgentSnapshot } from '../../../src/core/arcade/types.ts';

const spoken: AgentEvent = { type: 'spoken', role: 'main', text: '你好呀', completed: true };

function setup() {
  let snap: AgentSnapshot = { phase: 'idle', session: null, gameBusy: false };
  const events = new AgentEvents(() => snap);
  return { events, set: (s: Partial<AgentSnapshot>) => (snap = { ...snap, ...s }) };
}

describe('agent events', () => {
  it('a new listener hears the current state at once', () => {
    const { events, set } = setup();
    set({ gameBusy: true });
    const heard: AgentEvent[] = [];
    events.subscribe((e) => heard.push(e));
    expect(heard).toEqual([{ type: 'state', snapshot: { phase: 'idle', session: null, gameBusy: true } }]);
  });

  it('every listener hears every event, in order; state() sends the snapshot as it is now', () => {
    const { events, set } = setup();
    const a: AgentEvent[] = [];
    const b: AgentEvent[] = [];
    events.subscribe((e) => a.push(e));
    events.subscribe((e) => b.push(e));
    events.emit(spoken);
    set({ gameBusy: true });
    events.state();
    for (const heard of [a, b]) {
      expect(heard.map((e) => e.type)).toEqual(['state', 'spoken', 'state']);
      expect(heard[1]).toEqual(spoken);
      expect(heard[2]).toEqual({ type: 'state', snapshot: { phase: 'idle', session: null, gameBusy: true } });
    }
  });

  it('a removed listener hears nothing more; the others still do', () => {
    const { events } = setup();
    const a: AgentEvent[] = [];
    const b: AgentEvent[] = [];
    const stopA = events.subscribe((e) => a.push(e));
    events.subscribe((e) => b.push(e));
    stopA();
    events.emit(spoken);
    expect(a.map((e) => e.type)).toEqual(['state']);
    expect(b.map((e) => e.type)).toEqual(['state', 'spoken']);
  });

  it('a listener that throws neither stops the others nor the one emitting', () => {
    const { events } = setup();
    const after: AgentEvent[] = [];
    events.subscribe((e) => {
      if (e.type === 'spoken') throw new Error('broken screen');
    });
    events.subscribe((e) => after.push(e));
    expect(() => events.emit(spoken)).not.toThrow();
    expect(after.map((e) => e.type)).toEqual(['state', 'spoken']);
  });
});
