// The agent tools VS Code lists (package.json `languageModelTools`) are the ones the core runs and the MCP server
// serves: the same names (prefixed), descriptions and input schemas, each referencable in chat as #name.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  DESCRIPTIONS,
  INPUT_SCHEMAS,
  TOOL_NAMES,
  VSCODE_TOOL_PREFIX,
} from '../../../src/checks/agentTools/core/definitions';

const ROOT = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  modelDescription: string;
  userDescription?: string;
  displayName?: string;
  inputSchema: unknown;
}

describe('package.json languageModelTools (the agent tools)', () => {
  const tools = pkg.contributes.languageModelTools as ToolContribution[];

  it('lists the four tools of the core, in order, with the prefix', () => {
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOL_NAMES.map((n) => `${VSCODE_TOOL_PREFIX}${n}`),
    );
  });

  it('gives each the core’s model-facing description and input schema (what the MCP server serves too)', () => {
    TOOL_NAMES.forEach((n, i) => {
      assert.equal(tools[i].modelDescription, DESCRIPTIONS[n], n);
      assert.deepEqual(tools[i].inputSchema, INPUT_SCHEMAS[n], n);
    });
  });

  it('makes each referencable in chat by a unique #name, with a localized name and description', () => {
    const refs = tools.map((t) => t.toolReferenceName);
    assert.equal(new Set(refs).size, tools.length);
    for (const t of tools) {
      assert.equal(t.canBeReferencedInPrompt, true, t.name);
      assert.match(t.toolReferenceName ?? '', /^[A-Za-z][A-Za-z0-9]*$/, t.name);
      assert.match(t.displayName ?? '', /^%tool\.[a-z_]+\.displayName%$/, t.name);
      assert.match(t.userDescription ?? '', /^%tool\.[a-z_]+\.userDescription%$/, t.name);
    }
  });
});
