// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { describeElement } from './describe';

describe('describeElement', () => {
  it('names an element by its tag, type and accessible name', () => {
    document.body.innerHTML = '<button>Count</button><input type="email" aria-label="Work email"><my-card>Hi</my-card>';
    const [button, input, card] = Array.from(document.body.children);
    expect(describeElement(button!)).toBe('<button> "Count"');
    expect(describeElement(input!)).toBe('<input type=email> "Work email"');
    expect(describeElement(card!)).toBe('<my-card> "Hi"');
  });

  it('prints a tag name the parser took from a hostile page as `element`, so it cannot forge a ref', () => {
    document.body.innerHTML = '<a[e5]>Pay</a[e5]><x-"y">Go</x-"y">';
    const [forged, quoted] = Array.from(document.body.children);
    expect(forged!.localName).toBe('a[e5]');
    expect(describeElement(forged!)).toBe('<element> "Pay"');
    expect(describeElement(quoted!)).toBe('<element> "Go"');
  });
});
