/**
 * The regular expressions a recipe may use for a parameter's `pattern`. The agent chooses the
 * text matched against it, and a backtracking pattern can stall the panel (its kill switch
 * included) for minutes, so only a subset whose matching time stays small is accepted:
 * no backreferences, no lookaround, no quantifier on a group that holds a quantifier or an
 * alternation (`(a+)+`, `(a|aa)*`), and few variable quantifiers (`?`, `*`, `+`, `{n,m}`):
 * one, or two in a pattern anchored at its start. With values of at most
 * PATTERN_MAX_INPUT characters, the worst case is then about a million steps.
 */

/** Longest value matched against a pattern. */
export const PATTERN_MAX_INPUT = 1000;

export const INVALID_PATTERN = 'not a valid regular expression';

interface Shape {
  /** Variable quantifiers anywhere inside. */
  variable: number;
  quantified: boolean;
  alternation: boolean;
}

class PatternProblem extends Error {}

/** Why `pattern` is outside the accepted subset, or undefined when it is inside it (and valid). */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch {
    return INVALID_PATTERN;
  }
  let at = 0;
  const fail = (why: string): never => {
    throw new PatternProblem(why);
  };

  const quantifier = (): { variable: boolean } | undefined => {
    const char = pattern[at];
    let variable: boolean;
    if (char === '*' || char === '+' || char === '?') {
      at++;
      variable = true;
    } else if (char === '{') {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
      if (!braces) return undefined;
      at += braces[0].length;
      variable = braces[2] !== undefined && braces[3] !== braces[1];
    } else {
      return undefined;
    }
    if (pattern[at] === '?') at++;
    return { variable };
  };

  const escape = () => {
    const next = pattern[at + 1] ?? '';
    if (/[1-9]/.test(next)) fail(`a backreference (\\${next}) is not allowed`);
    if (next === 'k' && pattern[at + 2] === '<') fail('a named backreference (\\k<…>) is not allowed');
    at += 2;
  };

  const characterClass = () => {
    at++;
    if (pattern[at] === '^') at++;
    if (pattern[at] === ']') at++;
    while (at < pattern.length && pattern[at] !== ']') {
      if (pattern[at] === '\\') at += 2;
      else at++;
    }
    at++;
  };

  const group = (): Shape => {
    at++;
    if (pattern[at] === '?') {
      const head = pattern.slice(at, at + 3);
      if (head.startsWith('?=') || head.startsWith('?!') || head === '?<=' || head === '?<!') {
        fail('lookahead and lookbehind are not allowed');
      }
      if (head.startsWith('?:')) at += 2;
      else if (head.startsWith('?<')) at = pattern.indexOf('>', at) + 1;
    }
    const inner = alternatives();
    at++;
    return inner;
  };

  /** `split`: whether this level itself has alternatives (not only groups inside it). */
  const alternatives = (): Shape & { split: boolean } => {
    const shape = { variable: 0, quantified: false, alternation: false, split: false };
    for (;;) {
      const part = sequence();
      shape.variable += part.variable;
      shape.quantified ||= part.quantified;
      shape.alternation ||= part.alternation;
      if (pattern[at] !== '|') return shape;
      shape.alternation = shape.split = true;
      at++;
    }
  };

  const sequence = (): Shape => {
    const shape: Shape = { variable: 0, quantified: false, alternation: false };
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const start = at;
      const char = pattern[at];
      let atom: Shape = { variable: 0, quantified: false, alternation: false };
      if (char === '(') atom = group();
      else if (char === '[') characterClass();
      else if (char === '\\') escape();
      else at++;
      const anchor = char === '^' || char === '$';
      const repeat = anchor ? undefined : quantifier();
      if (repeat) {
        if (char === '(' && (atom.quantified || atom.alternation)) {
          fail(
            `the quantifier after ${pattern.slice(start, at)} repeats a group that has its own quantifier or alternatives`,
          );
        }
        atom = { ...atom, variable: atom.variable + (repeat.variable ? 1 : 0), quantified: true };
      }
      shape.variable += atom.variable;
      shape.quantified ||= atom.quantified;
      shape.alternation ||= atom.alternation;
    }
    return shape;
  };

  try {
    const shape = alternatives();
    const anchored = pattern.startsWith('^') && !shape.split;
    const allowed = anchored ? 2 : 1;
    if (shape.variable > allowed) {
      return `${shape.variable} variable quantifiers (?, *, +, {n,m}); at most ${allowed} ${anchored ? 'in a pattern anchored with ^' : '(two when the pattern starts with ^ and has no |)'}`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof PatternProblem) return error.message;
    throw error;
  }
}
