// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deepElementFromPoint } from './actions/actionability';
import { isAgentOutline, outlineOf } from './outline';
import { RefRegistry } from './refs';
import { walkSnapshot } from './snapshot';

const host = () => document.querySelector('tabwright-outline') as HTMLElement | null;

afterEach(() => {
  outlineOf(document).hide();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the agent outline', () => {
  it('sits outside the body in a closed shadow root and takes no pointer events', () => {
    document.body.innerHTML = '<button>Save</button>';
    outlineOf(document).show('Ada is working in this tab', '#1a73e8', 10_000);
    const element = host()!;
    expect(element.parentElement).toBe(document.documentElement);
    expect(element.shadowRoot).toBeNull();
    expect(element.style.getPropertyValue('pointer-events')).toBe('none');
    expect(element.style.getPropertyPriority('pointer-events')).toBe('important');
    expect(isAgentOutline(element)).toBe(true);
    expect(outlineOf(document).shown).toBe(true);
  });

  it('is never in a snapshot, even of the whole document, even when a page strips its marks and writes into it', () => {
    document.body.innerHTML = '<button>Save</button>';
    outlineOf(document).show('Ada is working in this tab', '#1a73e8', 10_000);
    const element = host()!;
    element.removeAttribute('aria-hidden');
    element.append('Text the page hid in the outline');
    const lines = walkSnapshot(document.documentElement, { refs: new RefRegistry(''), pseudoElements: false }).lines;
    expect(lines).toEqual(['- document', '  - button "Save" [e1]']);
  });

  it('cannot be faked by a page: an element with the same name is an ordinary element', () => {
    document.body.innerHTML = '<tabwright-outline>Shown as usual</tabwright-outline>';
    expect(isAgentOutline(document.body.firstElementChild!)).toBe(false);
    const lines = walkSnapshot(document.body, { refs: new RefRegistry(''), pseudoElements: false }).lines;
    expect(lines).toEqual(['- "Shown as usual"']);
  });

  it('is never what the hit test finds, even if a page made it take clicks', () => {
    document.body.innerHTML = '<button id="b">Save</button>';
    outlineOf(document).show('Ada is working in this tab', '#1a73e8', 10_000);
    const button = document.getElementById('b')!;
    Object.assign(document, {
      elementFromPoint: () => host(),
      elementsFromPoint: () => [host(), button, document.body],
    });
    expect(deepElementFromPoint(document, 5, 5)).toBe(button);
  });

  it('relabels in place, and goes on hide, when its lease runs out, or when the page is left', () => {
    vi.useFakeTimers();
    const outline = outlineOf(document);
    outline.show('Ada is working in this tab', '#1a73e8', 1_000);
    outline.show('Bob is working in this tab', '#188038', 1_000);
    expect(document.querySelectorAll('tabwright-outline')).toHaveLength(1);
    outline.hide();
    expect(host()).toBeNull();
    outline.show('Ada is working in this tab', '#1a73e8', 1_000);
    vi.advanceTimersByTime(999);
    expect(host()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(host()).toBeNull();
    outline.show('Ada is working in this tab', '#1a73e8', 60_000);
    window.dispatchEvent(new Event('pagehide'));
    expect(host()).toBeNull();
  });
});
