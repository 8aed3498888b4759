/**
 * A lint rule: no module may reach itself through its static imports and re-exports, type-only
 * ones included — a type-only cycle still ties two layers into one. Each file's imports are read
 * once (TypeScript's parser, top-level declarations only; `import()` is left out, as it loads on
 * demand) and relative specifiers are resolved to files of the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const importsByFile = new Map();

function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${base}/index.ts`]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function importsOf(file) {
  let found = importsByFile.get(file);
  if (found) return found;
  found = [];
  importsByFile.set(file, found);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return found;
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const target = specifier && resolveSpecifier(file, specifier);
    if (target && !found.includes(target)) found.push(target);
  }
  return found;
}

/** A path of imports from `start` back to `start`, or undefined. */
function cycleFrom(start) {
  const seen = new Set();
  const walk = (file, path) => {
    for (const next of importsOf(file)) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const cycle = walk(next, [...path, next]);
      if (cycle) return cycle;
    }
    return undefined;
  };
  return walk(start, [start]);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}' },
  },
  create(context) {
    return {
      Program(node) {
        const file = context.filename;
        // Files change between runs of a watching linter; one run reads each file once.
        importsByFile.delete(file);
        const cycle = cycleFrom(file);
        if (!cycle) return;
        const root = context.cwd;
        context.report({ node, messageId: 'cycle', data: { path: cycle.map((f) => relative(root, f)).join(' → ') } });
      },
    };
  },
};
