import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { schemaCompletion, schemaInfo } from './schemaCompletion';
import { MOCK_SCHEMA } from '../lib/api/mockEdit';
import { placeDiagnostics } from './fields';
import { inspect } from '../lib/api/mockEdit';

const source = schemaCompletion(schemaInfo(JSON.stringify(MOCK_SCHEMA)));
function complete(doc: string): CompletionResult | null {
  const pos = doc.indexOf('|');
  const text = doc.replace('|', '');
  const state = EditorState.create({ doc: text });
  return source(new CompletionContext(state, pos, true)) as CompletionResult | null;
}
const labels = (r: CompletionResult | null) => r?.options.map((o) => o.label) ?? [];

describe('schema completion for hooks.json', () => {
  it('offers hook keys inside a hook and top-level keys at the top', () => {
    expect(labels(complete('{\n  "hooks": [\n    {\n      "|\n    }\n  ]\n}'))).toEqual(['"name"', '"file"', '"timing"', '"role"', '"persistent"', '"tool_filter"']);
    expect(labels(complete('{\n  "|\n}'))).toEqual(['"$schema"', '"hooks"']);
  });
  it('offers enum values for timing and role, booleans for persistent', () => {
    expect(labels(complete('{"hooks": [{"timing": "|"}]}'))).toContain('"before_each_agent"');
    expect(labels(complete('{"hooks": [{"role": |}]}'))).toEqual(['"system"', '"user"']);
    expect(labels(complete('{"hooks": [{"persistent": |}]}'))).toEqual(['true', 'false']);
  });
  it('offers nothing between entries', () => {
    expect(complete('{"hooks": [|]}')).toBeNull();
  });
});

describe('placing diagnostics on fields', () => {
  it('puts each diagnostic on the field it points at, a missing field on the entry', () => {
    const text = '{\n  "hooks": [\n    {"name": "a", "file": "a.md", "timing": "nope", "role": "system", "persistent": false},\n    {\n      "name": "b",\n      "file": "b.md",\n      "role": "system",\n      "persistent": true\n    }\n  ]\n}\n';
    const r = inspect('s/hooks/hooks.json', text, () => 'x');
    const p = placeDiagnostics(r.entries, r.diagnostics);
    expect(p.byEntry.get(0)?.get('timing')?.[0]?.code).toBe('unknown-timing');
    expect(p.byEntry.get(1)?.get('')?.[0]?.code).toBe('missing-field');
    expect(p.file).toEqual([]);
  });
  it('keeps syntax errors at the file level', () => {
    const r = inspect('s/hooks/hooks.json', '{"hooks": [', () => 'x');
    expect(placeDiagnostics(r.entries, r.diagnostics).file[0]?.code).toBe('json-syntax');
  });
});
