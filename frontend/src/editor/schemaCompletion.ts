// Completion of hooks.json keys and enum values from the project's JSON Schema (HooksSchema()).
import type { CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

interface Prop { description?: string; enum?: unknown[]; type?: string | string[]; items?: Prop; properties?: Record<string, Prop>; $ref?: string }
interface Schema extends Prop { $defs?: Record<string, Prop> }

export interface SchemaInfo {
  top: Record<string, Prop>;
  hook: Record<string, Prop>;
}

export function schemaInfo(text: string): SchemaInfo {
  const s = JSON.parse(text) as Schema;
  const deref = (p: Prop | undefined): Prop | undefined => {
    if (p?.$ref?.startsWith('#/$defs/')) return s.$defs?.[p.$ref.slice('#/$defs/'.length)];
    return p;
  };
  const hooks = deref(s.properties?.hooks);
  const hook = deref(hooks?.items);
  return { top: s.properties ?? {}, hook: hook?.properties ?? {} };
}

/** Open braces before `pos` (outside strings): 1 = top level, 2+ = inside a hook. */
function depthAt(text: string, pos: number): number {
  let depth = 0, inStr = false;
  for (let i = 0; i < pos; i++) {
    const c = text[i];
    if (inStr) { if (c === '\\') i++; else if (c === '"') inStr = false; continue; }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return depth;
}

const values = (p: Prop): unknown[] => p.enum ?? (p.type === 'boolean' ? [true, false] : []);

export function schemaCompletion(info: SchemaInfo): CompletionSource {
  return (ctx: CompletionContext): CompletionResult | null => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = line.text.slice(0, ctx.pos - line.from);
    // a value: "key": "par|  or  "key": |
    const val = /"([\w$-]+)"\s*:\s*("?)([\w-]*)$/.exec(before);
    if (val) {
      const text = ctx.state.doc.toString();
      const props = depthAt(text, ctx.pos) >= 3 ? info.hook : info.top;
      const p = props[val[1]!];
      const opts = p ? values(p) : [];
      if (!opts.length) return null;
      const quoted = val[2] === '"';
      const from = ctx.pos - val[3]!.length - (quoted ? 1 : 0);
      return {
        from,
        options: opts.map((v) => ({ label: JSON.stringify(v), type: typeof v === 'string' ? 'enum' : 'constant', info: p?.description })),
        validFor: /^"?[\w-]*"?$/,
      };
    }
    // a key: start of a member, possibly after a quote
    const key = /(^\s*|[{,]\s*)("?)([\w$-]*)$/.exec(before);
    if (!key || (!ctx.explicit && key[2] === '' && key[3] === '')) return null;
    const text = ctx.state.doc.toString();
    const depth = depthAt(text, ctx.pos);
    if (depth !== 1 && depth !== 3) return null; // 2: inside the hooks array, between entries
    const props = depth === 3 ? info.hook : info.top;
    const from = ctx.pos - key[3]!.length - (key[2] ? 1 : 0);
    return {
      from,
      options: Object.entries(props).map(([k, p]) => ({ label: `"${k}"`, apply: `"${k}": `, type: 'property', info: p.description })),
      validFor: /^"?[\w$-]*$/,
    };
  };
}

// ---- hooks.yaml (jcli command hooks): events at the top level, hook and filter fields below ----

export interface YamlSchemaInfo {
  events: Record<string, Prop>;
  hook: Record<string, Prop>;
  filter: Record<string, Prop>;
}

export function yamlSchemaInfo(text: string): YamlSchemaInfo {
  const s = JSON.parse(text) as Schema;
  const events = Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => k !== '$schema'));
  return { events, hook: s.$defs?.hook?.properties ?? {}, filter: s.$defs?.filter?.properties ?? {} };
}

/** The parent key of the line at `lineNo` (1-based) for an entry indented `indent`: the nearest line above with less indent. */
function yamlParent(doc: CompletionContext['state']['doc'], lineNo: number, indent: number): { key: string; indent: number } | null {
  for (let n = lineNo - 1; n >= 1; n--) {
    const t = doc.line(n).text;
    if (!t.trim() || t.trim().startsWith('#')) continue;
    const ind = t.length - t.trimStart().length;
    if (ind < indent) {
      const m = /^\s*(?:-\s+)?([\w$-]+)\s*:/.exec(t);
      // "- name: x" at a lower indent: we are a sibling field of that hook's first key
      if (/^\s*-\s/.test(t) && ind + 2 <= indent) return { key: '-', indent: ind };
      return m ? { key: m[1]!, indent: ind } : null;
    }
  }
  return null;
}

export function yamlCompletion(info: YamlSchemaInfo): CompletionSource {
  return (ctx: CompletionContext): CompletionResult | null => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = line.text.slice(0, ctx.pos - line.from);
    const indent = before.length - before.trimStart().length;
    // a value: "key: par|"
    const val = /^\s*(?:-\s+)?([\w-]+):\s+([\w-]*)$/.exec(before);
    if (val) {
      const p = info.hook[val[1]!];
      const opts = p ? values(p) : [];
      if (!opts.length) return null;
      return { from: ctx.pos - val[2]!.length, options: opts.map((v) => ({ label: String(v), type: 'enum', info: p?.description })), validFor: /^[\w-]*$/ };
    }
    const key = /^(\s*)(-\s+)?([\w$-]*)$/.exec(before);
    if (!key || (!ctx.explicit && key[3] === '')) return null;
    const from = ctx.pos - key[3]!.length;
    const opts = (props: Record<string, Prop>) => ({
      from,
      options: Object.entries(props).map(([k, p]) => ({ label: k, apply: `${k}: `, type: 'property', info: p.description })),
      validFor: /^[\w$-]*$/,
    });
    if (indent === 0 && !key[2]) return opts(info.events);
    const col = indent + (key[2]?.length ?? 0);
    const parent = yamlParent(ctx.state.doc, line.number, key[2] ? indent : col);
    if (parent?.key === 'filter') return opts(info.filter);
    if (key[2] || parent?.key === '-' || (parent && parent.key in info.events)) return opts(info.hook);
    return null;
  };
}

// ---- any JSON file from its JSON Schema (picoclaw.json): keys and values by the path at the cursor ----

interface Node extends Prop { additionalProperties?: boolean | Node; items?: Node; properties?: Record<string, Node> }

/** The keys from the document's root to the container the cursor is in ('[]' for an array element). */
export function jsonPathAt(text: string, pos: number): { path: string[]; inArray: boolean } {
  const stack: { arr: boolean; key: string | null; pending: string | null }[] = [];
  let str: string | null = null;
  let last = '';
  for (let i = 0; i < pos; i++) {
    const c = text[i]!;
    if (str !== null) {
      if (c === '\\') { str += text[i + 1] ?? ''; i++; } else if (c === '"') { last = str; str = null; } else str += c;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === '"') str = '';
    else if (c === ':' && top && !top.arr) top.pending = last;
    else if (c === ',' && top && !top.arr) top.pending = null;
    else if (c === '{' || c === '[') stack.push({ arr: c === '[', key: top ? (top.arr ? '[]' : top.pending) : null, pending: null });
    else if (c === '}' || c === ']') stack.pop();
  }
  return { path: stack.slice(1).map((f) => f.key ?? ''), inArray: stack[stack.length - 1]?.arr ?? false };
}

export function jsonSchemaCompletion(text: string): CompletionSource {
  const s = JSON.parse(text) as Node & { $defs?: Record<string, Node> };
  const deref = (n: Node | undefined): Node | undefined => (n?.$ref?.startsWith('#/$defs/') ? s.$defs?.[n.$ref.slice('#/$defs/'.length)] : n);
  const child = (n: Node | undefined, key: string): Node | undefined => {
    const d = deref(n);
    if (!d) return undefined;
    if (key === '[]') return deref(d.items);
    return deref(d.properties?.[key] ?? (typeof d.additionalProperties === 'object' ? d.additionalProperties : undefined));
  };
  return (ctx: CompletionContext): CompletionResult | null => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = line.text.slice(0, ctx.pos - line.from);
    const { path, inArray } = jsonPathAt(ctx.state.doc.toString(), ctx.pos);
    const node = path.reduce<Node | undefined>((n, k) => child(n, k), deref(s));
    const quoted = (word: string) => (v: unknown) => ({ label: JSON.stringify(v), type: typeof v === 'string' ? 'enum' : 'constant', apply: JSON.stringify(v), info: word });
    // an array element: "observe": ["ag|
    if (inArray) {
      const m = /("?)([\w.*-]*)$/.exec(before)!;
      const opts = node?.items ? values(deref(node.items)!) : [];
      if (!opts.length || (!ctx.explicit && !m[1] && !m[2])) return null;
      return { from: ctx.pos - m[2]!.length - m[1]!.length, options: opts.map(quoted('')), validFor: /^"?[\w.*-]*"?$/ };
    }
    const val = /"([\w$-]+)"\s*:\s*("?)([\w-]*)$/.exec(before);
    if (val) {
      const p = child(node, val[1]!);
      const opts = p ? values(p) : [];
      if (!opts.length) return null;
      return { from: ctx.pos - val[3]!.length - (val[2] ? 1 : 0), options: opts.map(quoted(p?.description ?? '')), validFor: /^"?[\w-]*"?$/ };
    }
    const key = /(^\s*|[{,]\s*)("?)([\w$-]*)$/.exec(before);
    const props = deref(node)?.properties;
    if (!key || !props || (!ctx.explicit && key[2] === '' && key[3] === '')) return null;
    return {
      from: ctx.pos - key[3]!.length - (key[2] ? 1 : 0),
      options: Object.entries(props).map(([k, p]) => ({ label: `"${k}"`, apply: `"${k}": `, type: 'property', info: p.description })),
      validFor: /^"?[\w$-]*$/,
    };
  };
}
