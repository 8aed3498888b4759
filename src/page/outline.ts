/**
 * The outline a page shows while an agent acts in it: a thin frame round the viewport and a small
 * label naming the agent. It never takes a click (`pointer-events: none`), its contents sit in a
 * closed shadow root, and its host is remembered in a WeakSet of this isolated world, which the
 * snapshot walker and the hit test consult, so it is never read, diffed, found or clicked. Page
 * scripts cannot add to that set, so a page cannot hide its own elements from the agent by copying it.
 */
const hosts = new WeakSet<Node>();

export function isAgentOutline(node: Node): boolean {
  return hosts.has(node);
}

/** Longest a lease may be: the panel asks for one longer than any action, and removes the outline itself. */
export const MAX_LEASE_MS = 120_000;

function setStyles(element: HTMLElement, styles: Record<string, string>): void {
  // Property by property through the CSSOM: a page's CSP may forbid inline <style> and style attributes.
  for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value, 'important');
}

export class AgentOutline {
  #host: HTMLElement | undefined;
  /** Inside the closed shadow root, reachable from here alone. */
  #frame: HTMLElement | undefined;
  #lease: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly document: Document) {
    // A document kept in the back-forward cache must not come back still outlined.
    document.defaultView?.addEventListener('pagehide', () => this.hide());
  }

  get shown(): boolean {
    return this.#host?.isConnected === true;
  }

  /**
   * Shows (or relabels) the outline until `hide`, or until `leaseMs` pass, so an outline whose
   * panel went away mid-action does not stay on the page.
   */
  show(label: string, colour: string, leaseMs: number): void {
    if (!this.#host || !this.#frame) [this.#host, this.#frame] = this.#build();
    this.#paint(this.#frame, label, colour);
    if (!this.#host.isConnected) this.document.documentElement.append(this.#host);
    clearTimeout(this.#lease);
    this.#lease = setTimeout(() => this.hide(), Math.min(leaseMs, MAX_LEASE_MS));
  }

  hide(): void {
    clearTimeout(this.#lease);
    this.#lease = undefined;
    this.#host?.remove();
  }

  #build(): [HTMLElement, HTMLElement] {
    const host = this.document.createElement('tabwright-outline');
    hosts.add(host);
    host.setAttribute('aria-hidden', 'true');
    setStyles(host, {
      all: 'initial',
      display: 'block',
      position: 'fixed',
      inset: '0',
      'z-index': '2147483647',
      'pointer-events': 'none',
    });
    const root = host.attachShadow({ mode: 'closed' });
    const frame = this.document.createElement('div');
    const label = this.document.createElement('span');
    frame.append(label);
    root.append(frame);
    return [host, frame];
  }

  #paint(frame: HTMLElement, text: string, colour: string): void {
    setStyles(frame, {
      position: 'fixed',
      inset: '0',
      border: `2px solid ${colour}`,
      'box-sizing': 'border-box',
      'pointer-events': 'none',
    });
    const label = frame.firstElementChild as HTMLElement;
    label.textContent = text;
    setStyles(label, {
      position: 'absolute',
      top: '0',
      right: '16px',
      'max-width': '40vw',
      overflow: 'hidden',
      'text-overflow': 'ellipsis',
      'white-space': 'nowrap',
      background: colour,
      color: '#fff',
      font: '12px/1.6 system-ui, sans-serif',
      padding: '0 8px 1px',
      'border-radius': '0 0 6px 6px',
      opacity: '0.9',
      'pointer-events': 'none',
    });
  }
}

const outlines = new WeakMap<Document, AgentOutline>();

export function outlineOf(document: Document): AgentOutline {
  let outline = outlines.get(document);
  if (!outline) {
    outline = new AgentOutline(document);
    outlines.set(document, outline);
  }
  return outline;
}
