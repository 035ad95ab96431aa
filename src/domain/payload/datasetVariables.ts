/**
 * A payload's dataset as variables: `// @each FILE` makes every field of the file's rows a `{{…}}` variable of
 * the payload, so the editor knows them (no problem, completion and hover with the first values) and reports
 * only a field no row has, naming the dataset. Pure; no `vscode`: the editor reads the file and passes its text.
 */
import { l10n } from '../../common/plainL10n';
import type { Dataset } from './dataset';
import type { VariableContext } from './variables';

/** How many distinct values of a field completion and hover show. */
const SHOWN_VALUES = 3;

/** The `// @each FILE` line of a payload (the first one: a payload runs over one dataset). */
export function eachLine(text: string): { file: string; line: number } | undefined {
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const m = /^\uFEFF?[ \t]*\/\/[ \t]*@each\b[ \t]*(.*?)[ \t]*\r?$/i.exec(lines[line]);
    if (m) {
      const file = m[1].replace(/^"(.*)"$/, '$1');
      return file === '' ? undefined : { file, line };
    }
  }
  return undefined;
}

export interface DatasetFields {
  /** The file as the `@each` line names it, for messages. */
  file: string;
  rows: number;
  /** Every field some row has, in first-seen order, with its first distinct values. */
  fields: Map<string, string[]>;
}

export function datasetFields(file: string, dataset: Dataset): DatasetFields {
  const fields = new Map<string, string[]>();
  for (const row of dataset.rows) {
    for (const [name, value] of Object.entries(row.values)) {
      const values = fields.get(name) ?? [];
      if (values.length < SHOWN_VALUES && !values.includes(value)) {
        values.push(value);
      }
      fields.set(name, values);
    }
  }
  return { file, rows: dataset.rows.length, fields };
}

/**
 * The context a payload's references are checked against: the environment's variables with the dataset's
 * fields over them (as a run's rows are), each at its first value.
 */
export function withDatasetFields(context: VariableContext, dataset: DatasetFields): VariableContext {
  const first = Object.fromEntries([...dataset.fields].map(([name, values]) => [name, values[0] ?? '']));
  return { ...context, variables: { ...context.variables, ...first } };
}

/** The problem of a reference (`{{name}}` as written) that is neither a field of the dataset nor a variable of the environment. */
export function missingFieldMessage(
  reference: string,
  dataset: DatasetFields,
  environment: string | undefined,
): string {
  const known = [...dataset.fields.keys()].join(', ');
  if (known === '') {
    return environment === undefined
      ? l10n.t('{0} is not a field of {1}: no row of it has a field', reference, dataset.file)
      : l10n.t(
          '{0} is not a field of {1} (no row of it has a field) nor a variable of environment {2}',
          reference,
          dataset.file,
          environment,
        );
  }
  return environment === undefined
    ? l10n.t('{0} is not a field of any row of {1} (its fields: {2})', reference, dataset.file, known)
    : l10n.t(
        '{0} is not a field of any row of {1} (its fields: {2}) nor a variable of environment {3}',
        reference,
        dataset.file,
        known,
        environment,
      );
}
