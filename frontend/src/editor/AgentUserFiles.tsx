// The agent CLIs' user-level hook files from the backend's registry (Codex's ~/.codex/config.toml,
// Qwen Code's and Gemini CLI's settings.json, Copilot CLI's ~/.copilot/hooks folder): their hooks run before the
// project's in every folder, and their commands are part of what trusting a folder covers — one
// form per agent, like the Claude Code settings beside it.
import { useEffect, useState, type FormEvent } from 'react';
import { agentUserFiles, setAgentUserFile, type AgentUserFile } from '../lib/api/configs';

export function AgentUserFiles() {
  const [files, setFiles] = useState<AgentUserFile[] | null>(null);
  useEffect(() => {
    let live = true;
    agentUserFiles().then((f) => { if (live && f !== null) setFiles(f); }).catch(() => {});
    return () => { live = false; };
  }, []);
  if (files === null) return null;
  return <>{files.map((f) => <AgentUserFileForm key={f.system} file={f} />)}</>;
}

function AgentUserFileForm({ file: f }: { file: AgentUserFile }) {
  const [file, setFile] = useState(f.file);
  const [msg, setMsg] = useState<{ text: string; err: boolean } | null>(null);
  const what = f.folder ? 'folder' : 'file';
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await setAgentUserFile(f.system, file.trim());
      setMsg({ text: file.trim() ? 'saved: its hooks run in every folder, its commands join the trust prompt' : `saved: no user-level ${what}`, err: false });
    } catch (err) {
      setMsg({ text: String(err instanceof Error ? err.message : err), err: true });
    }
  };
  return (
    <form className="mrun-form" onSubmit={(e) => void save(e)} aria-label={`${f.title}: user-level ${what}`}>
      <h3>{f.title}: user level</h3>
      <p className="muted small">{f.usage}. A folder is trusted together with its commands.</p>
      <label>{f.name}<input value={file} onChange={(e) => setFile(e.currentTarget.value)} placeholder="none" spellCheck={false} /></label>
      {msg && <div className={msg.err ? 'mrun-error' : 'muted small'} role={msg.err ? 'alert' : 'status'}>{msg.text}</div>}
      <div className="mrun-actions"><button type="submit" className="btn">Save {f.title}</button></div>
    </form>
  );
}
