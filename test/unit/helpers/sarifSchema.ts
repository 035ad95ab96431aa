// Validation against the official SARIF 2.1.0 schema (test/fixtures/sarif, vendored: no network in tests).
// Ajv comes with the devDependency @modelcontextprotocol/sdk; the schema is draft-04, which Ajv 8 reads as
// draft-07 once its `$schema` and `id` are set aside (the keywords it uses mean the same in both).
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SCHEMA = path.join(__dirname, '../../fixtures/sarif/sarif-schema-2.1.0.json');

let validate: (((value: unknown) => boolean) & { errors?: unknown }) | undefined;

/** The schema's complaints about `log` (empty when it is a valid SARIF 2.1.0 log). */
export function sarifErrors(log: unknown): string[] {
  if (!validate) {
    const { $schema: _s, id: _id, ...schema } = JSON.parse(fs.readFileSync(SCHEMA, 'utf8')) as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  return validate(log)
    ? []
    : ((validate.errors ?? []) as { instancePath: string; message?: string }[]).map(
        (e) => `${e.instancePath} ${e.message ?? ''}`,
      );
}
