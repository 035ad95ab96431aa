/**
 * One module knows the shapes of an answer: no module outside src/domain/answer reads an answer's `choices`,
 * `output_text`, `output` or `delta`. Read from the code's syntax (property access, `['…']`, destructuring), so
 * text inside strings — the code snippets that print `response.output_text` — does not count, and neither do
 * the reader's own results (`TokenUsage.output`), told apart by the type checker.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');
const READER = path.join(SRC, 'domain', 'answer') + path.sep;
const SHAPE_FIELDS = new Set(['choices', 'output_text', 'output', 'delta']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Whether the value read from is one of the reader's own types (declared in src/domain/answer). */
function readerType(checker: ts.TypeChecker | undefined, receiver: ts.Expression): boolean {
  const declarations = checker?.getTypeAtLocation(receiver).getSymbol()?.getDeclarations() ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => d.getSourceFile().fileName.startsWith(READER.split(path.sep).join('/')))
  );
}

/** `file:line field` for every read of an answer-shape field in `source`. */
function shapeReads(source: ts.SourceFile, checker?: ts.TypeChecker): string[] {
  const file = source.fileName;
  const found: string[] = [];
  const note = (node: ts.Node, name: string, receiver?: ts.Expression) => {
    if (SHAPE_FIELDS.has(name) && !(receiver && readerType(checker, receiver))) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${path.relative(ROOT, file)}:${line} ${name}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      note(node, node.name.text, node.expression);
    } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      note(node, node.argumentExpression.text, node.expression);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) {
        note(node, name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const source = (f: string) => ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);

describe('project: one answer reader', () => {
  it('no module outside src/domain/answer reads choices, output_text, output or delta', function () {
    this.timeout(120_000);
    const files = sources(SRC);
    const program = ts.createProgram(files, { strict: true, noEmit: true, skipLibCheck: true, types: [] });
    const checker = program.getTypeChecker();
    const reads = files
      .filter((f) => !f.startsWith(READER))
      .flatMap((f) => shapeReads(program.getSourceFile(f) ?? source(f), checker));
    assert.deepEqual(reads, [], 'read answers through src/domain/answer (readAnswer, AnswerStream)');
  });

  it('the check sees a property read, an element read and destructuring, and not a string', () => {
    const hits = shapeReads(
      ts.createSourceFile(
        path.join(SRC, 'x.ts'),
        "const a = body.choices; const b = body['output_text']; const { delta } = e; const s = 'print(r.output)';",
        ts.ScriptTarget.Latest,
        true,
      ),
    );
    assert.deepEqual(hits, ['src/x.ts:1 choices', 'src/x.ts:1 output_text', 'src/x.ts:1 delta']);
  });

  it('the reader itself is where those reads are', () => {
    const reads = sources(READER).flatMap((f) => shapeReads(source(f)));
    assert.ok(reads.length > 10, reads.join('\n'));
  });
});
