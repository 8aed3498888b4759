import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeTabPort } from '../fake-tab-port';
import { createConnectorContext } from '../context';
import { fillPath, recipeToConnector, runRecipeTool } from './interpreter';
import { recipeJsonSchema } from './json-schema';
import { PATTERN_MAX_INPUT, patternProblem } from './safe-pattern';
import { Recipe } from './schema';
import { parseRecipeText } from './validate';

const ROOT = join(import.meta.dirname, '../../..');

const base = {
  format: 'tabwright-recipe/1',
  id: 'tickets',
  name: 'Tickets',
  version: '1.0.0',
  matches: ['http://app.test/*'],
  tools: {
    list: {
      description: 'List tickets',
      input: {
        state: { type: 'string', enum: ['open', 'closed'], default: 'open', description: 'Which tickets' },
        limit: { type: 'integer', minimum: 1, maximum: 10, default: 2, description: 'At most this many' },
      },
      steps: [
        { step: 'navigate', path: 'list?state={state}', waitFor: 'ul' },
        { step: 'wait', selector: 'li' },
        {
          step: 'extract-rows',
          rows: 'li',
          limit: '{limit}',
          into: 'tickets',
          fields: { title: 'span', url: { selector: 'a', pick: 'href' } },
        },
        { step: 'extract-fields', into: 'page', fields: { heading: 'h1' } },
      ],
    },
  },
};
const text = (value: unknown) => JSON.stringify(value);

describe('recipe validation', () => {
  it('accepts a well-formed recipe', () => {
    expect(parseRecipeText(text(base))).toMatchObject({ ok: true, recipe: { id: 'tickets', tested: false } });
  });

  it('says where each problem is', () => {
    const broken = {
      ...base,
      id: 'Bad Id',
      version: 'one',
      extra: true,
      matches: ['nope'],
      tools: {
        'Bad-Name': base.tools.list,
        list: { ...base.tools.list, steps: [{ step: 'hover', selector: 'a' }, { step: 'navigate' }] },
      },
    };
    const check = parseRecipeText(text(broken));
    expect(check.ok).toBe(false);
    const errors = check.ok ? [] : check.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        '(top level): unknown key(s) extra',
        'id: an id of 2–32 lowercase letters, digits, _ or -',
        'version: a version like 1.0.0',
        'matches[0]: a URL match pattern like https://*.example.com/*',
        'tools.Bad-Name: not a valid name (a snake_case tool name)',
        'tools.list.steps[0].step: unknown kind; use navigate, wait, wait-text, extract-rows, extract-fields, expect, fill, select, check, click or submit',
        'tools.list.steps[1].path: required',
      ]),
    );
  });

  it('checks what the schema cannot: declared placeholders, integer limits, unique keys, regexes', () => {
    const tool = base.tools.list;
    const check = parseRecipeText(
      text({
        ...base,
        tools: {
          list: {
            ...tool,
            input: { ...tool.input, q: { type: 'string', pattern: '(', description: 'Query' } },
            steps: [
              { step: 'navigate', path: 'x/{missing}' },
              { step: 'extract-rows', rows: 'li', limit: '{state}', into: 'a', fields: { t: 'b' } },
              { step: 'extract-fields', into: 'a', fields: { t: 'b' } },
            ],
          },
        },
      }),
    );
    expect(check).toEqual({
      ok: false,
      errors: [
        'tools.list.steps[0].path: {missing} is not an input of list',
        'tools.list.steps[1].limit: {state} must name an integer input of list',
        'tools.list.steps[2].into: "a" is used by an earlier step',
        'tools.list.input.q.pattern: not a valid regular expression',
      ],
    });
  });

  it('refuses what is not JSON, or too large', () => {
    expect(parseRecipeText('{ "format": ')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^Not valid JSON/)],
    });
    expect(parseRecipeText(' '.repeat(300_000))).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('larger than')],
    });
  });
});

describe('the recipe interpreter', () => {
  const pages = {
    '/': '<p>home</p>',
    '/list?state=closed':
      '<h1>Closed</h1><ul><li><span>A</span><a href="/t/1">1</a></li><li><span>B</span></li><li><span>C</span></li></ul>',
  };

  it('builds tool inputs from the declared parameters, with defaults and limits', () => {
    const check = parseRecipeText(text(base));
    if (!check.ok) throw new Error(check.errors.join());
    const connector = recipeToConnector(check.recipe);
    expect(connector.kind).toBe('recipe');
    const input = connector.tools.list!.input;
    expect(input.parse({})).toEqual({ state: 'open', limit: 2 });
    expect(input.safeParse({ state: 'nope' }).success).toBe(false);
    expect(input.safeParse({ limit: 11 }).success).toBe(false);
    expect(connector.tools.list!.description).toContain('not tested against a live site');
  });

  it('runs the steps in order through ctx and gathers each extract under its key', async () => {
    const check = parseRecipeText(text(base));
    if (!check.ok) throw new Error(check.errors.join());
    const port = new FakeTabPort({ pages });
    const ctx = createConnectorContext({
      connectorId: 'tickets',
      connectorName: 'Tickets',
      site: 'http://app.test/',
      auth: undefined,
      port,
      urlRefusal: async () => undefined,
      signal: new AbortController().signal,
      log: () => undefined,
      timeoutMs: 200,
    });
    const result = await runRecipeTool(check.recipe.tools.list!, { state: 'closed', limit: 2 }, ctx);
    expect(result.data).toEqual({
      tickets: [
        { title: 'A', url: 'http://app.test/t/1' },
        { title: 'B', url: null },
      ],
      page: { heading: 'Closed' },
    });
    expect(port.visited.at(-1)).toBe('http://app.test/list?state=closed');
  });

  it('fills paths with URL-encoded arguments only', () => {
    expect(fillPath('search?q={q}&n={n}', { q: 'a b&c=/d', n: 3 })).toBe('search?q=a%20b%26c%3D%2Fd&n=3');
    expect(fillPath('x/{gone}', {})).toBe('x/');
  });

  it('refuses path arguments that would step out of the declared path, naming the argument', () => {
    for (const escape of ['..', '.', '%2e%2e', '%2E.', '%252e%252e', 'a/b', '../admin', 'a%2Fb', 'a\\b', '%5c']) {
      expect(() => fillPath('issues/{id}/edit', { id: escape }), escape).toThrow(
        'The argument id may not be "." or ".." or contain "/" or "\\" (also percent-encoded)',
      );
    }
    expect(fillPath('issues/{id}', { id: '...' })).toBe('issues/...');
    expect(fillPath('issues/{id}', { id: 'v1.2' })).toBe('issues/v1.2');
    expect(fillPath('issues/{id}', { id: '100%' })).toBe('issues/100%25');
    // In the query a slash is only text.
    expect(fillPath('search?q={q}', { q: '../a/b' })).toBe('search?q=..%2Fa%2Fb');
  });
});

describe('recipe write steps', () => {
  const writer = (destructive: boolean, steps: unknown[]) => ({
    ...base,
    tools: {
      note: {
        description: 'Add a note',
        destructive,
        input: {
          text: { type: 'string', description: 'The note' },
          kind: { type: 'string', description: 'Its kind' },
          secret: { type: 'boolean', default: false, description: 'Private' },
        },
        steps: [
          ...steps,
          { step: 'extract-fields', into: 'form', fields: { text: { selector: 'textarea', pick: 'value' } } },
        ],
      },
    },
  });
  const formSteps = [
    { step: 'navigate', path: 'form', waitFor: 'form' },
    { step: 'fill', selector: 'textarea', value: 'Note: {text}' },
    { step: 'select', selector: 'select', label: '{kind}' },
    { step: 'check', selector: '#private', checked: '{secret}' },
    { step: 'click', selector: '#preview' },
    { step: 'submit', form: 'form' },
  ];

  it('refuses at import a tool with write steps that is not destructive, naming each step', () => {
    const check = parseRecipeText(text(writer(false, formSteps)));
    expect(check.ok ? [] : check.errors).toEqual([
      'tools.note.steps[1]: a fill step changes the site, so the tool must be "destructive": true',
      'tools.note.steps[2]: a select step changes the site, so the tool must be "destructive": true',
      'tools.note.steps[3]: a check step changes the site, so the tool must be "destructive": true',
      'tools.note.steps[4]: a click step changes the site, so the tool must be "destructive": true',
      'tools.note.steps[5]: a submit step changes the site, so the tool must be "destructive": true',
    ]);
    expect(parseRecipeText(text(writer(true, formSteps)))).toMatchObject({ ok: true });
  });

  it('checks the placeholders of values, labels, texts and checkboxes', () => {
    const check = parseRecipeText(
      text(
        writer(true, [
          { step: 'fill', selector: 'textarea', value: '{missing}' },
          { step: 'select', selector: 'select', label: '{gone}' },
          { step: 'check', selector: '#private', checked: '{text}' },
          { step: 'wait-text', text: '{nope}' },
          { step: 'expect', selector: 'p', text: '{absent}', message: 'Not saved' },
        ]),
      ),
    );
    expect(check.ok ? [] : check.errors).toEqual([
      'tools.note.steps[0].value: {missing} is not an input of note',
      'tools.note.steps[1].label: {gone} is not an input of note',
      'tools.note.steps[2].checked: {text} must name a boolean input of note',
      'tools.note.steps[3].text: {nope} is not an input of note',
      'tools.note.steps[4].text: {absent} is not an input of note',
    ]);
  });

  const FORM = `<form action="/save" method="post"><textarea name="t"></textarea>
    <select name="k"><option value="1">Bug</option><option value="2">Feature request</option></select>
    <input type="checkbox" id="private"><button type="button" id="preview" onclick="">Preview</button></form>`;
  const ctxFor = (port: FakeTabPort) =>
    createConnectorContext({
      connectorId: 'tickets',
      connectorName: 'Tickets',
      site: 'http://app.test/',
      auth: undefined,
      port,
      urlRefusal: async () => undefined,
      signal: new AbortController().signal,
      log: () => undefined,
      timeoutMs: 200,
    });

  it('fills text, chooses an option by its label and ticks a box, as the recipe says', async () => {
    const recipe = parseRecipeText(
      text(
        writer(true, [
          ...formSteps.slice(0, 4),
          { step: 'expect', selector: 'textarea', message: 'No form' },
          {
            step: 'extract-fields',
            into: 'state',
            fields: {
              kind: { selector: 'select', pick: 'value' },
              ticked: { selector: '#private:checked', pick: 'exists' },
            },
          },
        ]),
      ),
    );
    if (!recipe.ok) throw new Error(recipe.errors.join('\n'));
    const port = new FakeTabPort({ pages: { '/form': FORM } });
    const result = await runRecipeTool(
      recipe.recipe.tools.note!,
      { text: 'café', kind: 'feature REQUEST', secret: true },
      ctxFor(port),
    );
    expect(result.data).toEqual({ state: { kind: '2', ticked: true }, form: { text: 'Note: café' } });
  });

  it('fails with a clear message: an unknown option, a missing element, an error on the page', async () => {
    const run = async (steps: unknown[], args: Record<string, unknown> = { text: 'x', kind: 'Bug' }) => {
      const recipe = parseRecipeText(text(writer(true, [{ step: 'navigate', path: 'form' }, ...steps])));
      if (!recipe.ok) throw new Error(recipe.errors.join('\n'));
      const port = new FakeTabPort({ pages: { '/form': `${FORM}<div class="error">Token expired</div>` } });
      return runRecipeTool(recipe.recipe.tools.note!, args, ctxFor(port), { name: 'Tickets', auth: undefined });
    };
    await expect(run([{ step: 'select', selector: 'select', label: '{kind}' }], { kind: 'Task' })).rejects.toThrow(
      '"Task" is not a choice of select. Choices: Bug, Feature request.',
    );
    await expect(run([{ step: 'fill', selector: '#nothing', value: 'x' }])).rejects.toThrow(
      'No text field matches #nothing.',
    );
    await expect(
      run([{ step: 'expect', selector: 'p.saved', error: '.error', message: 'The note was not saved' }]),
    ).rejects.toThrow('The note was not saved: Tickets says "Token expired"');
    await expect(run([{ step: 'expect', selector: 'p.saved', message: 'The note was not saved' }])).rejects.toThrow(
      'The note was not saved (Tickets does not show it).',
    );
  });
});

describe('recipe patterns', () => {
  it('accepts the patterns recipes use', () => {
    for (const ok of [
      '^[A-Z][A-Z0-9_]+-\\d+$',
      '^[A-Za-z0-9_.-]+$',
      '^\\d{1,6}$',
      '[a-z]+',
      '^(?:open|closed)$',
      '^#?\\d+$',
      '^[^/]+$',
      '^(ab){2}c+$',
      '^\\p{L}+$',
    ]) {
      expect(patternProblem(ok), ok).toBeUndefined();
    }
  });

  it('refuses backreferences, lookaround, nested quantifiers and piles of quantifiers', () => {
    const refused: Array<[string, RegExp]> = [
      ['(a+)+$', /repeats a group that has its own quantifier/],
      ['^(a|aa)*$', /repeats a group that has its own quantifier or alternatives/],
      ['^(?:\\w+\\s?)*$', /repeats a group/],
      ['^(.*){3}x', /repeats a group/],
      ['(a)\\1', /backreference/],
      ['(?<x>a)\\k<x>', /named backreference/],
      ['^(?=a)a', /lookahead and lookbehind/],
      ['(?<!a)b', /lookahead and lookbehind/],
      ['\\d*\\d*x', /2 variable quantifiers.*at most 1/],
      ['^\\d*\\d*\\d*x', /3 variable quantifiers.*at most 2 in a pattern anchored/],
      ['^a?a?a?aaa$', /3 variable quantifiers/],
      ['^a+b+|c', /at most 1/],
      ['(', /not a valid regular expression/],
    ];
    for (const [pattern, problem] of refused) expect(patternProblem(pattern), pattern).toMatch(problem);
  });

  it('keeps the worst accepted pattern fast on the longest accepted input', () => {
    const worst = ['^\\d*\\d*x', '\\d+x', '^(?:\\d)+\\d*x', '^.*.*$'];
    for (const pattern of worst) {
      expect(patternProblem(pattern), pattern).toBeUndefined();
      const started = performance.now();
      new RegExp(pattern).test('1'.repeat(PATTERN_MAX_INPUT) + '!');
      expect(performance.now() - started, pattern).toBeLessThan(100);
    }
  });

  const withPattern = (pattern: string, extra: Record<string, unknown> = {}) => ({
    ...base,
    tools: {
      list: {
        ...base.tools.list,
        input: { ...base.tools.list.input, key: { type: 'string', pattern, description: 'Key', ...extra } },
      },
    },
  });

  it('refuses at import a recipe whose pattern is outside the subset, naming the pattern', () => {
    expect(parseRecipeText(text(withPattern('^(a+)+$')))).toEqual({
      ok: false,
      errors: [
        'tools.list.input.key.pattern: "^(a+)+$": the quantifier after (a+)+ repeats a group that has its own quantifier or alternatives',
      ],
    });
    expect(parseRecipeText(text(withPattern('^a+$', { maxLength: 5000 })))).toEqual({
      ok: false,
      errors: ['tools.list.input.key.maxLength: at most 1000 for a parameter with a pattern'],
    });
  });

  it('refuses again when it runs, without compiling the pattern, and bounds what reaches an accepted one', () => {
    // A recipe stored before the subset existed reaches the interpreter without the import check.
    const stored = Recipe.parse(withPattern('^(a|aa)*$'));
    const input = recipeToConnector(stored).tools.list!.input;
    const started = performance.now();
    const answer = input.safeParse({ key: `${'a'.repeat(40)}!` });
    expect(performance.now() - started).toBeLessThan(100);
    expect(answer.success).toBe(false);
    expect(answer.error?.issues[0]?.message).toBe(
      'The recipe\'s pattern "^(a|aa)*$" is refused (the quantifier after (a|aa)* repeats a group that has its own quantifier or alternatives); ask the user to fix the recipe.',
    );
    const accepted = recipeToConnector(Recipe.parse(withPattern('^[a-z]+$'))).tools.list!.input;
    expect(accepted.safeParse({ key: 'abc' }).success).toBe(true);
    expect(accepted.safeParse({ key: 'a'.repeat(PATTERN_MAX_INPUT + 1) }).success).toBe(false);
  });
});

describe('published recipes and schema', () => {
  it('schemas/recipe.schema.json is the schema derived from the zod definition', () => {
    const published = JSON.parse(readFileSync(join(ROOT, 'schemas/recipe.schema.json'), 'utf8')) as unknown;
    expect(published, 'run `npx tsx scripts/recipe-schema.ts` after changing the recipe format').toEqual(
      recipeJsonSchema(),
    );
  });

  const shipped = [
    ...readdirSync(join(ROOT, 'src/connectors/recipes')).map((f) => join('src/connectors/recipes', f)),
    ...readdirSync(join(ROOT, 'test/fixtures/connectors')).map((f) => join('test/fixtures/connectors', f)),
  ].filter((f) => f.endsWith('.recipe.json'));

  it.each(shipped)('%s is a valid recipe', (file) => {
    const check = parseRecipeText(readFileSync(join(ROOT, file), 'utf8'));
    expect(check.ok ? [] : check.errors).toEqual([]);
  });

  it('example recipes that never met a live site say so', () => {
    for (const file of shipped.filter((f) => f.startsWith('src/'))) {
      const check = parseRecipeText(readFileSync(join(ROOT, file), 'utf8'));
      expect(check.ok && check.recipe.tested, file).toBe(false);
    }
  });
});
