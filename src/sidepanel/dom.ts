/** A tiny element builder: no framework, no innerHTML, CSP-safe. */
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | undefined | null>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'className') {
      element.className = String(value);
    } else if (value === true) {
      element.setAttribute(key, '');
    } else {
      element.setAttribute(key, String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export function clear(element: Element): void {
  element.replaceChildren();
}

/**
 * A whole-number field kept within [min, max]: a value in range is saved when it changes; anything
 * else (empty, out of range) puts the current setting back rather than saving half a number.
 */
export function boundedNumberInput(o: {
  id: string;
  min: number;
  max: number;
  current(): number;
  save(value: number): void;
}): HTMLInputElement {
  const input = h('input', {
    type: 'number',
    id: o.id,
    min: String(o.min),
    max: String(o.max),
    value: String(o.current()),
  });
  input.addEventListener('change', () => {
    const value = Math.round(Number(input.value));
    if (Number.isFinite(value) && value >= o.min && value <= o.max) o.save(value);
    else input.value = String(o.current());
  });
  return input;
}
