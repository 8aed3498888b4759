/**
 * Demo commands for the multi-agent room: an agent that addresses another by @name, and two
 * agents that keep answering each other (so the panel's relay and loop guard can be seen).
 */
import type { DemoCommand } from './turn-io';

/** A relayed reply as the panel wraps it: `<message from="Name">…</message>`. */
const RELAY = /<message from="([^"]*)"(?: partial="true")?>\n?([\s\S]*?)\n?<\/message>/g;

export interface Relayed {
  from: string;
  body: string;
}

/** Splits a turn's text into relayed messages (with their sender) and anything the human wrote. */
export function splitRelays(text: string): { relays: Relayed[]; rest: string } {
  const relays = [...text.matchAll(RELAY)].map((match) => ({ from: match[1]!, body: stripLeadingMentions(match[2]!) }));
  return { relays, rest: text.replace(RELAY, '').trim() };
}

/** "@Beta @Gamma bounce" → "bounce": the mentions only said who the message was for. */
export function stripLeadingMentions(text: string): string {
  return text.replace(/^(\s*@[^\s@]+[,:]?)+\s*/u, '').trim();
}

export const roomCommands: Record<string, DemoCommand> = {
  mention: {
    usage: 'mention <name> <text>',
    summary: 'reply “@name text”, addressing another agent in the room',
    run(argument, io) {
      const [name, ...text] = argument.split(/\s+/);
      if (!name) return io.say('Say `mention <name> <text>`.');
      return io.say(`@${name} ${text.join(' ')}`.trim());
    },
  },
  bounce: {
    usage: 'bounce <name>',
    summary: 'reply “@name bounce”; an agent that receives it bounces it back (the loop guard stops them)',
    run(argument, io) {
      const target = argument.trim() || io.from;
      if (!target) return io.say('Say `bounce <name>`.');
      return io.say(`@${target} bounce`);
    },
  },
};
