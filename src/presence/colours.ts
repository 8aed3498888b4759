/**
 * Each agent's colour, the same every time (a hash of its id): its tab group and its outline use
 * it, so the user can tell two agents apart at a glance.
 */
export const GROUP_COLOURS = ['blue', 'purple', 'green', 'orange', 'pink', 'cyan', 'red', 'yellow', 'grey'] as const;
export type GroupColour = (typeof GROUP_COLOURS)[number];

/** Close to the shades Chrome paints its tab groups with, so an outline matches its group. */
export const OUTLINE_COLOURS: Readonly<Record<GroupColour, string>> = {
  blue: '#1a73e8',
  purple: '#a142f4',
  green: '#188038',
  orange: '#e8710a',
  pink: '#d01884',
  cyan: '#007b83',
  red: '#d93025',
  yellow: '#b06000',
  grey: '#5f6368',
};

/** FNV-1a over the id's UTF-16 units. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function colourFor(agentId: string): GroupColour {
  return GROUP_COLOURS[hash(agentId) % GROUP_COLOURS.length]!;
}
