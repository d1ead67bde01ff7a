// CodeMirror 6 in React: a controlled editor. The editor's own history is off — undo/redo are the
// editor store's registered actions (per file) — so Ctrl+Z reaches the panel's handler.
import { useEffect, useRef } from 'react';
import { Annotation, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, placeholder as cmPlaceholder } from '@codemirror/view';
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { json } from '@codemirror/lang-json';
import { syntaxHighlighting, defaultHighlightStyle, bracketMatching, indentOnInput } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic as CMDiagnostic } from '@codemirror/lint';
import { autocompletion, closeBrackets, completionKeymap, type CompletionSource } from '@codemirror/autocomplete';
import type { Diagnostic } from '../lib/api';

const external = Annotation.define<boolean>();

/** Backend diagnostics (1-based line/column) as CodeMirror ranges. */
export function toCMDiagnostics(doc: EditorState['doc'], diags: readonly Diagnostic[]): CMDiagnostic[] {
  return diags.map((d) => {
    const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
    // underline the token at the position (to the end of the word/string), at least one char
    const rest = doc.sliceString(from, line.to);
    const m = /^("(?:[^"\\]|\\.)*"|[\w$.-]+)/.exec(rest);
    const to = Math.min(line.to, from + Math.max(m ? m[0].length : 1, 1));
    return { from, to: Math.max(to, from), severity: d.severity, message: d.code ? `${d.message} (${d.code})` : d.message, source: 'hookctl' };
  });
}

interface Props {
  value: string;
  onChange: (text: string) => void;
  /** text: plain (YAML, scripts) with the lint gutter */
  language: 'markdown' | 'json' | 'text';
  diagnostics?: readonly Diagnostic[];
  completion?: CompletionSource;
  onFocus?: () => void;
  label: string;
  placeholder?: string;
  testid?: string;
}

export function CodeEditor({ value, onChange, language, diagnostics, completion, onFocus, label, placeholder, testid }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const cbs = useRef({ onChange, onFocus });
  useEffect(() => { cbs.current = { onChange, onFocus }; });

  useEffect(() => {
    const exts: Extension[] = [
      lineNumbers(), highlightActiveLine(), drawSelection(), indentOnInput(), bracketMatching(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      EditorView.lineWrapping,
      keymap.of([...completionKeymap, ...defaultKeymap, indentWithTab]),
      language === 'markdown' ? markdown() : language === 'json' ? [json(), closeBrackets(), lintGutter()] : lintGutter(),
      completion ? autocompletion({ override: [completion] }) : [],
      placeholder ? cmPlaceholder(placeholder) : [],
      EditorView.contentAttributes.of({ 'aria-label': label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((t) => t.annotation(external))) cbs.current.onChange(u.state.doc.toString());
        if (u.focusChanged && u.view.hasFocus) cbs.current.onFocus?.();
      }),
    ];
    const v = new EditorView({ state: EditorState.create({ doc: value, extensions: exts }), parent: host.current! });
    view.current = v;
    return () => { v.destroy(); view.current = null; };
    // the editor is made once per language/completion; `value` changes arrive through the effect below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, completion, label]);

  // external changes (undo, merge, take the disk's version, another editor of the same file)
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const cur = v.state.doc.toString();
    if (cur === value) return;
    const head = Math.min(v.state.selection.main.head, value.length);
    v.dispatch({ changes: { from: 0, to: cur.length, insert: value }, selection: { anchor: head }, annotations: external.of(true) });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v || !diagnostics) return;
    v.dispatch(setDiagnostics(v.state, toCMDiagnostics(v.state.doc, diagnostics)));
  }, [diagnostics, value]);

  return <div className={`cm-host cm-${language}`} ref={host} data-testid={testid} />;
}
