/**
 * How one agent's reply reaches another: `<message from="Name">…</message>`. The name is
 * sanitised and the body cannot close the element early or forge another sender.
 */

export function sanitiseName(name: string): string {
  return (
    name
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/["<>&]/g, '')
      .trim()
      .slice(0, 64) || 'agent'
  );
}

export function neutraliseBody(body: string): string {
  return body.replace(/<(\s*\/?\s*message\b)/gi, '\u2039$1');
}

export function wrapRelay(from: string, body: string, partial: boolean): string {
  const attributes = `from="${sanitiseName(from)}"${partial ? ' partial="true"' : ''}`;
  return `<message ${attributes}>\n${neutraliseBody(body)}\n</message>`;
}
