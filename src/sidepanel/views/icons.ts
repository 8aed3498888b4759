/**
 * A few line icons drawn as SVG elements (no icon font, no remote assets, nothing CSP could
 * object to). Icons are decoration: every control that shows one also has a text name.
 */
const SVG = 'http://www.w3.org/2000/svg';

/** Each icon is a list of path data on a 16×16 grid, stroked with the current colour. */
const PATHS = {
  copy: ['M5.5 5.5h7v7h-7z', 'M3.5 10.5v-7h7'],
  check: ['M3 8.5l3 3 7-7'],
  send: ['M2.5 8h10', 'M8.5 3.5L13 8l-4.5 4.5'],
  stop: ['M4.5 4.5h7v7h-7z'],
  retry: ['M12.5 8a4.5 4.5 0 1 1-1.3-3.2', 'M12.5 2.5v3h-3'],
  clear: ['M3 4.5h10', 'M6 4.5v-2h4v2', 'M4.5 4.5l.7 9h5.6l.7-9'],
  down: ['M8 3v9.5', 'M4 8.5l4 4 4-4'],
  tool: ['M10 2.5a3 3 0 0 0-2.8 4L2.5 11.2l2.3 2.3 4.7-4.7A3 3 0 0 0 13.5 6l-2 .5-1.5-1.5.5-2z'],
  plan: ['M6 4h7.5', 'M6 8h7.5', 'M6 12h7.5', 'M2.5 4h1', 'M2.5 8h1', 'M2.5 12h1'],
  thought: [
    'M8 2.5v2',
    'M8 11.5v2',
    'M2.5 8h2',
    'M11.5 8h2',
    'M4.1 4.1l1.4 1.4',
    'M10.5 10.5l1.4 1.4',
    'M4.1 11.9l1.4-1.4',
    'M10.5 5.5l1.4-1.4',
  ],
  alert: ['M8 2.5l6 10.5H2z', 'M8 6.5v3', 'M8 11.2v.3'],
  edit: ['M10.5 2.5l3 3-7.5 7.5H3v-3z'],
  plug: ['M5.5 2.5v3', 'M10.5 2.5v3', 'M3.5 5.5h9v2a4.5 4.5 0 0 1-9 0z', 'M8 12v1.5'],
} as const;

export type IconName = keyof typeof PATHS;

export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name}`);
  for (const d of PATHS[name]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
