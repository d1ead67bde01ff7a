// The editor's offer of new hook files: each hosted agent's root-level config the folder lacks
// (.codex/hooks.json, .gemini/settings.json, .github/hooks/hooks.json, …), as the backend's
// registry lists them. Picking one creates it with its system's starter text (never over a file)
// and the editor opens it raw. A menu of buttons: Tab reaches it, arrows move, Esc closes.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { NewHookFile } from '../lib/api/configs';

interface Props {
  files: NewHookFile[];
  onCreate: (file: string) => void;
  /** changes (non-zero) when the command palette's "new hook file" asks to open the menu */
  openRequest?: number;
}

export function NewFileMenu({ files, onCreate, openRequest }: Props) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const items = () => [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => { if (openRequest) setOpen(true); }, [openRequest]);
  // the first item takes the focus when the menu opens (or its items arrive), so the keyboard can pick at once
  useEffect(() => {
    if (open && !ref.current?.querySelector('[role="menu"]')?.contains(document.activeElement)) items()[0]?.focus();
  }, [open, files]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => { if (!ref.current?.contains(e.target as Node)) setOpen(false); };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      setOpen(false);
      ref.current?.querySelector<HTMLButtonElement>('[aria-haspopup]')?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
  };

  return (
    <div className="menu new-file-menu" ref={ref} onKeyDown={onKey}>
      <button type="button" className="btn sm" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}
        title="Create an agent's hook file in this folder (Ctrl+Shift+N)" data-testid="new-hook-file">
        + New file <span className="caret">▾</span>
      </button>
      {open && (
        <div className="menu-pop" role="menu" aria-label="New hook file">
          {files.length === 0 ? (
            <div className="menu-empty">Every agent&apos;s hook file exists in this folder.</div>
          ) : files.map((f) => (
            <button key={f.file} type="button" role="menuitem" className="menu-item" data-testid={`new-file-${f.file}`}
              onClick={() => { setOpen(false); onCreate(f.file); }}>
              <span>{f.label}</span> <code className="muted small">{f.file}</code>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
