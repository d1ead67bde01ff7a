// The editing half of the stand-in backend (vite dev / Vitest): files kept in memory, hooks.json
// parsed with positions by a small JSON reader and validated with the validator's main rules.
// It is not format-preserving (edits re-serialise with two-space indents) — the Go backend is.
import type { Diagnostic, FilePos, HookEntry, HookOp, HooksEdit, MergeResult, SaveResult, Timing } from './types';
import { TIMINGS } from './types';

export const MOCK_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Skill hooks (hooks.json)',
  type: 'object',
  required: ['hooks'],
  properties: {
    $schema: { type: 'string', description: 'Optional path or URL of this schema.' },
    hooks: {
      type: 'array', description: "The skill's hooks, injected in this order.",
      items: {
        type: 'object', required: ['name', 'file', 'timing', 'role', 'persistent'],
        properties: {
          name: { type: 'string', description: 'Identifier of the hook, unique within its skill.' },
          file: { type: 'string', description: "Path of the .md file, relative to the skill's hooks/ folder." },
          timing: { enum: [...TIMINGS], description: 'The checkpoint that injects the hook.' },
          role: { enum: ['system', 'user'], description: 'Role of the injected message.' },
          persistent: { type: 'boolean', description: 'Yielded to the frontend and carried into history.' },
          tool_filter: { type: 'array', items: { type: 'string' }, description: 'after_tool_call only: tool names.' },
        },
      },
    },
  },
};

export const SCHEMA_REF = 'https://hookstudio.local/schema/hooks.schema.json';

/** A stable short hash (FNV-1a), enough to detect a change in the mock. */
export function mockHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `fnv-${h.toString(16)}-${text.length}`;
}

// ---- a JSON reader that remembers where every value starts ----
type JNode =
  | { kind: 'object'; pos: FilePos; members: { key: string; keyPos: FilePos; value: JNode }[] }
  | { kind: 'array'; pos: FilePos; items: JNode[] }
  | { kind: 'string' | 'number' | 'bool' | 'null'; pos: FilePos; value: unknown };

class JsonError extends Error { constructor(msg: string, public pos: FilePos) { super(msg); } }

function readJson(text: string): JNode {
  let i = 0, line = 1, col = 1;
  const here = (): FilePos => ({ line, column: col, offset: i });
  const adv = () => { if (text[i] === '\n') { line++; col = 1; } else col++; i++; };
  const ws = () => { while (i < text.length && /\s|\uFEFF/.test(text[i]!)) adv(); };
  const fail = (m: string): never => { throw new JsonError(m, here()); };
  const str = (): string => {
    const start = i;
    adv();
    while (i < text.length && text[i] !== '"') { if (text[i] === '\\') adv(); if (text[i] === '\n') fail('newline in a string'); adv(); }
    if (text[i] !== '"') fail('unterminated string');
    adv();
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JNode => {
    ws();
    const pos = here();
    const c = text[i];
    if (c === '{') {
      adv();
      const members: { key: string; keyPos: FilePos; value: JNode }[] = [];
      ws();
      if (text[i] === '}') { adv(); return { kind: 'object', pos, members }; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key in double quotes');
        const keyPos = here();
        const key = str();
        ws();
        if (text[i] !== ':') fail("expected ':' after the key");
        adv();
        members.push({ key, keyPos, value: value() });
        ws();
        if (text[i] === ',') { adv(); continue; }
        if (text[i] === '}') { adv(); return { kind: 'object', pos, members }; }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      adv();
      const items: JNode[] = [];
      ws();
      if (text[i] === ']') { adv(); return { kind: 'array', pos, items }; }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') { adv(); continue; }
        if (text[i] === ']') { adv(); return { kind: 'array', pos, items }; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return { kind: 'string', pos, value: str() };
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) return fail(i >= text.length ? 'unexpected end of the file' : `unexpected character ${JSON.stringify(c)}`);
    for (let k = 0; k < m[0].length; k++) adv();
    const v = JSON.parse(m[0]) as unknown;
    return { kind: v === null ? 'null' : typeof v === 'boolean' ? 'bool' : 'number', pos, value: v };
  };
  const root = value();
  ws();
  if (i < text.length) fail('unexpected text after the end of the document');
  return root;
}

const KNOWN = new Set(['name', 'file', 'timing', 'role', 'persistent', 'tool_filter']);

/** Parse and validate a hooks.json text like skills.ParseHooks (main rules only). */
export function inspect(file: string, text: string, exists: (mdFile: string) => string | undefined): HooksEdit {
  const diagnostics: Diagnostic[] = [];
  const d = (p: FilePos, severity: 'error' | 'warning', code: string, message: string) => diagnostics.push({ file, line: p.line, column: p.column, severity, code, message });
  if (text.trim() === '') { d({ offset: 0, line: 1, column: 1 }, 'error', 'empty-file', 'hooks.json is empty'); return { text, entries: [], diagnostics }; }
  let root: JNode;
  try { root = readJson(text); } catch (e) {
    if (e instanceof JsonError) { d(e.pos, 'error', 'json-syntax', e.message); return { text, entries: [], diagnostics }; }
    throw e;
  }
  if (root.kind !== 'object') { d(root.pos, 'error', 'wrong-type', 'the document is not an object'); return { text, entries: [], diagnostics }; }
  const hooks = root.members.find((m) => m.key === 'hooks');
  if (!hooks) { d(root.pos, 'error', 'missing-field', '"hooks" is missing'); return { text, entries: [], diagnostics }; }
  if (hooks.value.kind !== 'array') { d(hooks.value.pos, 'error', 'wrong-type', '"hooks" is not an array'); return { text, entries: [], diagnostics }; }
  const entries: HookEntry[] = [];
  const names = new Set<string>();
  hooks.value.items.forEach((n, index) => {
    if (n.kind !== 'object') { d(n.pos, 'error', 'wrong-type', `hook ${index + 1} is not an object`); return; }
    const before = diagnostics.filter((x) => x.severity === 'error').length;
    const get = (k: string) => n.members.find((m) => m.key === k)?.value;
    const fields: Record<string, FilePos> = {};
    for (const m of n.members) {
      fields[m.key] = m.value.pos;
      if (!KNOWN.has(m.key)) d(m.keyPos, 'warning', 'unknown-field', `unknown field "${m.key}" is ignored`);
    }
    const s = (k: string): string => { const v = get(k); return v && v.kind === 'string' ? String(v.value) : ''; };
    for (const k of ['name', 'file', 'timing', 'role', 'persistent']) if (!get(k)) d(n.pos, 'error', 'missing-field', `hook ${index + 1}: "${k}" is missing`);
    const name = s('name'), mdFile = s('file'), timing = s('timing'), role = s('role');
    const nameNode = get('name');
    if (nameNode && name.trim() === '') d(nameNode.pos, 'error', 'empty-name', 'the hook name is empty');
    else if (nameNode && names.has(name)) d(nameNode.pos, 'error', 'duplicate-name', `another hook is already named "${name}"`);
    names.add(name);
    const fileNode = get('file');
    if (fileNode && mdFile.trim() === '') d(fileNode.pos, 'error', 'empty-path', '"file" is empty');
    else if (fileNode && exists(mdFile) === undefined) d(fileNode.pos, 'error', 'missing-file', `${mdFile} does not exist`);
    else if (fileNode && exists(mdFile)!.trim() === '') d(fileNode.pos, 'warning', 'empty-prompt', `${mdFile} is empty`);
    const timingNode = get('timing');
    if (timingNode && !TIMINGS.includes(timing as Timing)) d(timingNode.pos, 'error', 'unknown-timing', `unknown timing "${timing}"`);
    const roleNode = get('role');
    if (roleNode && role !== 'system' && role !== 'user') d(roleNode.pos, 'error', 'unknown-role', `role must be system or user, not "${role}"`);
    const pNode = get('persistent');
    const persistent = pNode?.kind === 'bool' && pNode.value === true;
    if (pNode && pNode.kind !== 'bool') d(pNode.pos, 'error', 'wrong-type', '"persistent" must be true or false');
    if (pNode && persistent && (timing === 'before_each_agent' || timing === 'after_tool_call')) {
      d(pNode.pos, 'warning', 'persistent-pile-up', `a persistent ${timing} hook is injected again ${timing === 'after_tool_call' ? 'after every tool call' : 'every agent round'} and never removed, so one more copy piles up in the conversation history each time`);
    }
    const tf = get('tool_filter');
    let toolFilter: string[] | null = null;
    if (tf?.kind === 'array') {
      toolFilter = tf.items.map((x) => ('value' in x ? String(x.value ?? '') : ''));
      if (toolFilter.length === 0) d(tf.pos, 'warning', 'empty-tool-filter', 'tool_filter is [] and matches no call');
      if (timing !== 'after_tool_call') d(tf.pos, 'warning', 'tool-filter-ignored', 'tool_filter only applies to after_tool_call hooks');
    }
    const ok = diagnostics.filter((x) => x.severity === 'error').length === before;
    entries.push({ index, name, file: mdFile, timing, role, persistent, ...(toolFilter ? { tool_filter: toolFilter } : {}), ok, pos: n.pos, fields });
  });
  return { text, entries, diagnostics };
}

interface HooksDoc { hooks: Record<string, unknown>[]; [k: string]: unknown }

/** Apply one HookOp (rejects like the backend: bad JSON, empty or taken names). */
export function applyOp(text: string, op: HookOp): string {
  let doc: HooksDoc;
  try { doc = text.trim() === '' ? { $schema: SCHEMA_REF, hooks: [] } : (JSON.parse(text) as HooksDoc); } catch (e) {
    throw new Error(`not valid JSON (${String(e)}); fix it in the raw view first`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.hooks)) throw new Error('"hooks" is not an array; fix it in the raw view first');
  const hooks = [...doc.hooks];
  const names = () => hooks.map((h) => h.name);
  const checkName = (name: string, except = -1) => {
    if (!name.trim()) throw new Error(`${op.kind}: empty-name: a hook needs a name`);
    if (hooks.some((h, i) => i !== except && h.name === name)) throw new Error(`${op.kind}: duplicate-name: another hook is already named "${name}"`);
  };
  const at = (i: number) => { if (i < 0 || i >= hooks.length) throw new Error(`${op.kind}: no hook at index ${i}`); return hooks[i]!; };
  switch (op.kind) {
    case 'add': checkName(op.hook.name); hooks.push({ ...op.hook }); break;
    case 'update': {
      const h = { ...at(op.index) };
      for (const [k, v] of Object.entries(op.fields)) {
        if (k === 'name') checkName(String(v), op.index);
        if (v === null) delete h[k]; else h[k] = v;
      }
      hooks[op.index] = h;
      break;
    }
    case 'rename': checkName(op.name, op.index); hooks[op.index] = { ...at(op.index), name: op.name }; break;
    case 'duplicate': {
      const src = at(op.index);
      let name = op.name ?? `${String(src.name)}-copy`;
      for (let n = 2; !op.name && names().includes(name); n++) name = `${String(src.name)}-copy-${n}`;
      checkName(name);
      hooks.splice(op.index + 1, 0, { ...structuredClone(src), name });
      break;
    }
    case 'move': {
      at(op.index);
      if (op.to < 0 || op.to >= hooks.length) throw new Error(`move: no slot ${op.to}`);
      const [h] = hooks.splice(op.index, 1);
      hooks.splice(op.to, 0, h!);
      break;
    }
    case 'delete': at(op.index); hooks.splice(op.index, 1); break;
  }
  return JSON.stringify({ ...doc, hooks }, null, 2) + '\n';
}

/** Canonical text: $schema first, two-space indent. */
export function canonical(text: string): string {
  const doc = JSON.parse(text) as HooksDoc;
  const { $schema: _ignored, ...rest } = doc;
  void _ignored;
  return JSON.stringify({ $schema: SCHEMA_REF, ...rest }, null, 2) + '\n';
}

/** Line merge good enough for the mock: identical sides merge, else mine wins with conflict markers. */
export function merge(base: string, mine: string, theirs: string): MergeResult {
  if (mine === theirs || theirs === base) return { text: mine, conflicts: [] };
  if (mine === base) return { text: theirs, conflicts: [] };
  return {
    text: `<<<<<<< mine (unsaved edits)\n${mine}${mine.endsWith('\n') ? '' : '\n'}=======\n${theirs}${theirs.endsWith('\n') ? '' : '\n'}>>>>>>> theirs (on disk)\n`,
    conflicts: [{ kind: 'both-changed', line: 1, base, mine, theirs }],
  };
}

export function saveResult(status: SaveResult['status'], hash: string, theirs?: string): SaveResult {
  return { status, hash, diagnostics: [], ...(theirs !== undefined ? { theirs } : {}) };
}
