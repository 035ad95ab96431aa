/**
 * `model-access references --sarif FILE`: the references as SARIF 2.1.0 for code scanning (GitHub's
 * upload-sarif, Azure DevOps, any SARIF viewer). One rule per lifecycle state, one result per reference:
 * an error, warning or note where the editor shows that diagnostic, `kind: "pass"` for a current or preview
 * model (named, but nothing to do). The message is the editor's sentence, successor included. Pure.
 */
import type { ReferenceState, ReferenceVerdict } from '../references/core/referenceState';
import type { ModelReference } from '../references/core/types';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://github.com/model-access/model-access-vscode';

/** One rule per state, in this order (a result's ruleIndex points into it). */
const RULES: { state: ReferenceState; name: string; text: string; level: 'error' | 'warning' | 'note' | 'none' }[] = [
  {
    state: 'retired',
    name: 'RetiredModel',
    text: 'The code names a model the registry says is retired.',
    level: 'error',
  },
  { state: 'gone', name: 'GoneModel', text: 'The code names a model the registry no longer lists.', level: 'error' },
  {
    state: 'retiring',
    name: 'RetiringModel',
    text: 'The code names a model the registry says retires on a date.',
    level: 'warning',
  },
  { state: 'deprecated', name: 'DeprecatedModel', text: 'The code names a deprecated model.', level: 'warning' },
  {
    state: 'unknown',
    name: 'UnknownModel',
    text: 'The code names an id one edit away from a model of the registry.',
    level: 'note',
  },
  { state: 'preview', name: 'PreviewModel', text: 'The code names a model in preview.', level: 'none' },
  { state: 'current', name: 'CurrentModel', text: 'The code names a current model.', level: 'none' },
];

const LEVEL = { error: 'error', warning: 'warning', information: 'note', none: 'none' } as const;

export interface SarifReference {
  /** The file, relative to the folder the command ran in, `/`-separated. */
  file: string;
  ref: ModelReference;
  verdict: ReferenceVerdict;
}

/** The SARIF log of `references` (a JSON value; the caller writes it). */
export function sarifLog(references: readonly SarifReference[]): unknown {
  const rules = RULES.map((r) => ({
    id: `model-access/${r.state}`,
    name: r.name,
    shortDescription: { text: r.text },
    defaultConfiguration: { level: r.level },
    helpUri: `${INFORMATION_URI}/blob/main/docs/checks-in-ci.md`,
  }));
  const results = references.map(({ file, ref, verdict }) => {
    const ruleIndex = RULES.findIndex((r) => r.state === verdict.state);
    return {
      ruleId: rules[ruleIndex].id,
      ruleIndex,
      level: LEVEL[verdict.severity],
      ...(verdict.severity === 'none' ? { kind: 'pass' } : {}),
      message: { text: verdict.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
            region: {
              startLine: ref.line + 1,
              startColumn: ref.character + 1,
              endLine: ref.line + 1,
              endColumn: ref.character + 1 + ref.length,
            },
          },
        },
      ],
      properties: {
        model: ref.id,
        state: verdict.state,
        ...(verdict.successor !== undefined ? { successor: verdict.successor } : {}),
        ...(ref.nearest !== undefined ? { didYouMean: ref.nearest } : {}),
        ...(verdict.date !== undefined ? { date: new Date(verdict.date).toISOString() } : {}),
      },
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'model-access', informationUri: INFORMATION_URI, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
