// The settings' user-level jcli hooks.yaml (design-hooks.md: "from the app's user-level file"): its
// hooks run before the project's and the skills' in every folder, and its commands are part of what
// trusting a folder covers.
import { useEffect, useState, type FormEvent } from 'react';
import { setUserHooksFile, userHooksFile } from '../lib/api/configs';

export function UserHooksSettings() {
  const [file, setFile] = useState<string | null>(null);
  const [msg, setMsg] = useState<{ text: string; err: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    userHooksFile().then((f) => { if (live && f !== null) setFile(f); }).catch(() => {});
    return () => { live = false; };
  }, []);
  if (file === null) return null;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await setUserHooksFile(file.trim());
      setMsg({ text: file.trim() ? 'saved: its commands join the trust prompt' : 'saved: no user-level hooks', err: false });
    } catch (err) {
      setMsg({ text: String(err instanceof Error ? err.message : err), err: true });
    }
  };
  return (
    <form className="mrun-form" onSubmit={(e) => void save(e)} aria-label="User-level command hooks">
      <h3>User-level command hooks</h3>
      <p className="muted small">A jcli <code>hooks.yaml</code> whose hooks run first, before the project&apos;s and the skills&apos;, in every folder (like <code>~/.jcli/hooks.yaml</code>). A folder is trusted together with its commands.</p>
      <label>hooks.yaml<input value={file} onChange={(e) => setFile(e.currentTarget.value)} placeholder="none (e.g. ~/.jcli/hooks.yaml)" spellCheck={false} /></label>
      {msg && <div className={msg.err ? 'mrun-error' : 'muted small'} role={msg.err ? 'alert' : 'status'}>{msg.text}</div>}
      <div className="mrun-actions"><button type="submit" className="btn">Save user hooks</button></div>
    </form>
  );
}
