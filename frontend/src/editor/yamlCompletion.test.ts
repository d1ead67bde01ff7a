import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EditorState } from '@codemirror/state';
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { jsonPathAt, jsonSchemaCompletion, yamlCompletion, yamlSchemaInfo } from './schemaCompletion';

// the schema the backend embeds (schema/hooks-yaml.schema.json), so completion follows it
const schema = readFileSync(resolve(process.cwd(), '../schema/hooks-yaml.schema.json'), 'utf8');
const source = yamlCompletion(yamlSchemaInfo(schema));
function complete(doc: string, explicit = true): CompletionResult | null {
  const pos = doc.indexOf('|');
  const state = EditorState.create({ doc: doc.replace('|', '') });
  return source(new CompletionContext(state, pos, explicit)) as CompletionResult | null;
}
const labels = (r: CompletionResult | null) => r?.options.map((o) => o.label) ?? [];

describe('schema completion for hooks.yaml', () => {
  it('offers the events at the top level', () => {
    const l = labels(complete('pre_t|'));
    expect(l).toContain('pre_tool_execution');
    expect(l).toContain('session_start');
    expect(l).not.toContain('$schema');
  });
  it('offers hook fields in a list entry and below its first key', () => {
    expect(labels(complete('stop:\n  - |'))).toEqual(['name', 'type', 'command', 'prompt', 'model', 'timeout', 'on_error', 'filter']);
    expect(labels(complete('stop:\n  - name: a\n    ti|'))).toContain('timeout');
  });
  it('offers filter fields under filter:', () => {
    expect(labels(complete('stop:\n  - command: x\n    filter:\n      |'))).toEqual(['tool_name', 'tool_matcher', 'model_prefix']);
  });
  it('offers enum values for type and on_error', () => {
    expect(labels(complete('stop:\n  - type: |'))).toEqual(['bash', 'llm']);
    expect(labels(complete('stop:\n  - command: x\n    on_error: s|'))).toEqual(['skip', 'abort']);
    expect(complete('stop:\n  - command: ech|')).toBeNull();
  });
  it('stays quiet on an empty line unless asked', () => {
    expect(complete('|', false)).toBeNull();
  });
});

describe('schema completion for picoclaw.json', () => {
  const pico = jsonSchemaCompletion(readFileSync(resolve(process.cwd(), '../schema/picoclaw-hooks.schema.json'), 'utf8'));
  const at = (doc: string): CompletionResult | null => {
    const pos = doc.indexOf('|');
    return pico(new CompletionContext(EditorState.create({ doc: doc.replace('|', '') }), pos, true)) as CompletionResult | null;
  };
  it('finds the path at the cursor', () => {
    expect(jsonPathAt('{"hooks": {"processes": {"p": {"observe": ["a", ', 47)).toEqual({ path: ['hooks', 'processes', 'p', 'observe'], inArray: true });
  });
  it('offers keys by path, through $refs and additionalProperties', () => {
    expect(labels(at('{\n  "|'))).toEqual(['"$schema"', '"hooks"']);
    expect(labels(at('{"hooks": {"|'))).toContain('"processes"');
    expect(labels(at('{"hooks": {"processes": {"guard": {"|'))).toContain('"intercept"');
  });
  it('offers enum values of fields and of array items', () => {
    expect(labels(at('{"hooks": {"processes": {"g": {"transport": "|'))).toEqual(['"stdio"']);
    expect(labels(at('{"hooks": {"processes": {"g": {"intercept": ["|'))).toContain('"before_tool"');
    expect(labels(at('{"hooks": {"enabled": |'))).toEqual(['true', 'false']);
  });
});

describe("schema completion for other agents' hook files, from the schemas the backend embeds", () => {
  const source = (name: string) => jsonSchemaCompletion(readFileSync(resolve(process.cwd(), `../schema/${name}.schema.json`), 'utf8'));
  const at = (src: ReturnType<typeof source>, doc: string): CompletionResult | null => {
    const pos = doc.indexOf('|');
    return src(new CompletionContext(EditorState.create({ doc: doc.replace('|', '') }), pos, true)) as CompletionResult | null;
  };
  it("Gemini CLI's settings.json: its events, a definition's and a hook's keys, the only type it runs", () => {
    const g = source('gemini-settings');
    expect(labels(at(g, '{\n  "|'))).toEqual(['"$schema"', '"hooks"', '"hooksConfig"']);
    expect(labels(at(g, '{"hooks": {"|'))).toEqual(expect.arrayContaining(['"BeforeTool"', '"BeforeModel"', '"BeforeToolSelection"', '"AfterAgent"']));
    expect(labels(at(g, '{"hooks": {"|'))).not.toContain('"PreToolUse"');
    expect(labels(at(g, '{"hooks": {"BeforeTool": [{"|'))).toEqual(expect.arrayContaining(['"matcher"', '"hooks"', '"sequential"']));
    expect(labels(at(g, '{"hooks": {"BeforeTool": [{"hooks": [{"|'))).toEqual(expect.arrayContaining(['"type"', '"command"', '"timeout"']));
    expect(labels(at(g, '{"hooks": {"BeforeTool": [{"hooks": [{"type": "|'))).toEqual(['"command"']);
    expect(labels(at(g, '{"hooksConfig": {"enabled": |'))).toEqual(['true', 'false']);
  });
  it("Copilot CLI's hooks file: version, its camelCase events, a hook's bash and timeoutSec", () => {
    const c = source('copilot-hooks');
    expect(labels(at(c, '{\n  "|'))).toEqual(expect.arrayContaining(['"version"', '"hooks"']));
    expect(labels(at(c, '{"version": 1, "hooks": {"|'))).toEqual(expect.arrayContaining(['"preToolUse"', '"sessionStart"', '"userPromptSubmitted"']));
    expect(labels(at(c, '{"version": 1, "hooks": {"preToolUse": [{"|'))).toEqual(expect.arrayContaining(['"bash"', '"powershell"', '"timeoutSec"']));
  });
});

