// A payload's `// @each` dataset as variables: its fields are known (first values for completion and hover), and
// a field no row has is reported naming the dataset.
import * as assert from 'node:assert/strict';
import { readDataset } from '../../../../src/domain/payload/dataset';
import {
  datasetFields,
  eachLine,
  missingFieldMessage,
  withDatasetFields,
} from '../../../../src/domain/payload/datasetVariables';
import { referencesIn, resolveString, type VariableContext } from '../../../../src/domain/payload/variables';

const CASES = [
  '{"country": "France", "capital": "Paris"}',
  '{"country": "Japan", "capital": "Tokyo", "note": "island"}',
  '{"country": "Peru", "capital": "Lima"}',
  '{"country": "France", "capital": "Paris"}',
  '{"country": "Chile", "capital": "Santiago"}',
].join('\n');

const context: VariableContext = {
  variables: { tone: 'formal', country: 'Nowhere' },
  environment: 'Staging',
  env: () => undefined,
  uuid: () => '',
  now: () => 0,
};

describe('domain/payload/datasetVariables', () => {
  it('finds the @each line and its file, quoted or not; none without one', () => {
    assert.deepEqual(eachLine('// POST /v1/chat\n// @each cases.jsonl\n{}'), { file: 'cases.jsonl', line: 1 });
    assert.deepEqual(eachLine('  //@each "my cases.csv"\r\n{}'), { file: 'my cases.csv', line: 0 });
    assert.equal(eachLine('// @expect text contains "x"\n{}'), undefined);
    assert.equal(eachLine('// @each\n{}'), undefined);
  });

  it('every field some row has, with up to three distinct first values in row order', () => {
    const fields = datasetFields('cases.jsonl', readDataset(CASES, 'cases.jsonl'));
    assert.equal(fields.rows, 5);
    assert.deepEqual([...fields.fields.keys()], ['country', 'capital', 'note']);
    assert.deepEqual(fields.fields.get('country'), ['France', 'Japan', 'Peru']);
    assert.deepEqual(fields.fields.get('note'), ['island']);
  });

  it("the dataset's fields resolve, over the environment's variables, as a run's rows do", () => {
    const fields = datasetFields('cases.jsonl', readDataset(CASES, 'cases.jsonl'));
    const merged = withDatasetFields(context, fields);
    const text = '{"input": "The capital of {{country}}, {{tone}}"}';
    const problems = referencesIn(text).flatMap((r) => resolveString(r.text, merged).problems);
    assert.deepEqual(problems, []);
    assert.equal(resolveString('{{country}}', merged).sent, 'France');
    assert.equal(resolveString('{{tone}}', merged).sent, 'formal');
  });

  it('a field no row has is named against the dataset and the environment', () => {
    const fields = datasetFields('cases.jsonl', readDataset(CASES, 'cases.jsonl'));
    assert.equal(
      missingFieldMessage('{{population}}', fields, 'Staging'),
      '{{population}} is not a field of any row of cases.jsonl (its fields: country, capital, note) nor a variable of environment Staging',
    );
    assert.equal(
      missingFieldMessage('{{population}}', fields, undefined),
      '{{population}} is not a field of any row of cases.jsonl (its fields: country, capital, note)',
    );
    const empty = datasetFields('empty.csv', readDataset('', 'empty.csv'));
    assert.equal(
      missingFieldMessage('{{x}}', empty, undefined),
      '{{x}} is not a field of empty.csv: no row of it has a field',
    );
  });
});
