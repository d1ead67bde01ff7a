// A file changed (or vanished) on disk while it has unsaved edits: both versions side by side and
// the three ways out. Nothing is dropped silently.
import { useState } from 'react';
import type { MergeConflict } from '../lib/api';
import type { EditorStore, OpenFile } from './store';

export function ConflictPanel({ store, file }: { store: EditorStore; file: OpenFile }) {
  const [busy, setBusy] = useState(false);
  const c = file.conflict;
  if (!c) return null;
  const act = (fn: () => Promise<unknown>) => { setBusy(true); fn().catch((e) => store.toast(String(e), 'err')).finally(() => setBusy(false)); };
  if (c.kind === 'deleted') {
    return (
      <section className="conflict" role="alert" aria-label="File deleted on disk" data-testid="conflict">
        <header><b>{file.file}</b> was deleted on disk while you have unsaved edits.</header>
        <pre className="conflict-text mine" aria-label="my version">{file.text}</pre>
        <div className="conflict-actions">
          <button type="button" className="btn primary" disabled={busy} onClick={() => act(() => store.keepMine(file.file))}>Restore my version</button>
          <button type="button" className="btn" disabled={busy} onClick={() => act(() => store.takeTheirs(file.file))}>Close</button>
        </div>
      </section>
    );
  }
  return (
    <section className="conflict" role="alert" aria-label="Changed on disk" data-testid="conflict">
      <header><b>{file.file}</b> changed on disk while you have unsaved edits. Choose what to keep:</header>
      <div className="conflict-sides">
        <div><div className="side-title">Mine (unsaved)</div><pre className="conflict-text mine" aria-label="my version">{file.text}</pre></div>
        <div><div className="side-title">On disk</div><pre className="conflict-text theirs" aria-label="version on disk">{c.theirs}</pre></div>
      </div>
      <div className="conflict-actions">
        <button type="button" className="btn primary" disabled={busy} onClick={() => act(() => store.keepMine(file.file))} title="Overwrite the disk with my version">Keep mine</button>
        <button type="button" className="btn" disabled={busy} onClick={() => act(() => store.takeTheirs(file.file))} title="Drop my edits (undo brings them back)">Take disk's</button>
        <button type="button" className="btn" disabled={busy} onClick={() => act(() => store.merge(file.file))} title="Three-way merge; the result stays unsaved">Merge</button>
      </div>
    </section>
  );
}

export function MergeConflicts({ items, onDismiss }: { items: readonly MergeConflict[]; onDismiss: () => void }) {
  return (
    <section className="merge-conflicts" role="status" aria-label="Merge conflicts">
      <header>
        <b>Merged with {items.length} {items.length === 1 ? 'conflict' : 'conflicts'}</b> — mine was kept where both sides changed; review and save.
        <button type="button" className="linkbtn" onClick={onDismiss}>dismiss</button>
      </header>
      <ul>
        {items.map((c, i) => (
          <li key={i}>
            <span className="code">{c.kind}</span> {c.hook && <b>{c.hook}</b>} {c.field && <code>{c.field}</code>} {c.line ? `line ${c.line}` : ''}
            {c.theirs !== undefined && <span className="muted"> — disk: <code>{c.theirs.slice(0, 80)}</code></span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
