// The settings' Claude Code user-level settings.json (issue 19; ~/.claude/settings.json): Claude Code
// reads its hooks before the project's .claude/settings.json, so they run in every folder, and their
// commands are part of what trusting a folder covers — like the user-level hooks.yaml beside it.
import { useEffect, useState, type FormEvent } from 'react';
import { claudeUserSettings, setClaudeUserSettings } from '../lib/api/configs';

export function ClaudeUserSettings() {
  const [file, setFile] = useState<string | null>(null);
  const [msg, setMsg] = useState<{ text: string; err: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    claudeUserSettings().then((f) => { if (live && f !== null) setFile(f); }).catch(() => {});
    return () => { live = false; };
  }, []);
  if (file === null) return null;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await setClaudeUserSettings(file.trim());
      setMsg({ text: file.trim() ? 'saved: its hooks run in every folder, its commands join the trust prompt' : 'saved: no user-level Claude Code settings', err: false });
    } catch (err) {
      setMsg({ text: String(err instanceof Error ? err.message : err), err: true });
    }
  };
  return (
    <form className="mrun-form" onSubmit={(e) => void save(e)} aria-label="Claude Code user settings">
      <h3>Claude Code user settings</h3>
      <p className="muted small">Claude Code&apos;s user-level <code>settings.json</code> (like <code>~/.claude/settings.json</code>): its <code>hooks</code> run before the project&apos;s <code>.claude/settings.json</code>, in every folder. A folder is trusted together with its commands.</p>
      <label>settings.json<input value={file} onChange={(e) => setFile(e.currentTarget.value)} placeholder="none (e.g. ~/.claude/settings.json)" spellCheck={false} /></label>
      {msg && <div className={msg.err ? 'mrun-error' : 'muted small'} role={msg.err ? 'alert' : 'status'}>{msg.text}</div>}
      <div className="mrun-actions"><button type="submit" className="btn">Save Claude Code settings</button></div>
    </form>
  );
}
