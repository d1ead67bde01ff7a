// Endpoint profiles (docs/trace-view.md "Real models"): list, add/edit, delete, test connection.
// The API key is a password field that is never filled back in: empty keeps the stored key.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import * as run from '../lib/api/run';
import type { ConnectionResult, Profile, ProfileInfo, Provider } from '../lib/api/run';
import { PolicySettings } from '../requests/PolicySettings';
import { UserHooksSettings } from '../editor/UserHooksSettings';
import { ClaudeUserSettings } from '../editor/ClaudeUserSettings';
import { AgentUserFiles } from '../editor/AgentUserFiles';
import { AgentsSettings } from '../agents/AgentsSettings';

const KEY_LABELS: Record<run.KeySource, string> = { keyring: 'key in OS keyring', env: 'key from environment', none: 'no key' };
const ENV_OF: Record<Provider, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const DEFAULT_URL: Record<Provider, string> = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' };

interface Form { name: string; provider: Provider; base_url: string; model: string; temperature: string; max_tokens: string; timeout: string; key: string }
const blank: Form = { name: '', provider: 'openai', base_url: '', model: '', temperature: '', max_tokens: '', timeout: '', key: '' };

function toForm(p: ProfileInfo): Form {
  const secs = run.durationSeconds(p.timeout);
  return {
    name: p.name, provider: p.provider, base_url: p.base_url, model: p.model,
    temperature: p.temperature === undefined || p.temperature === null ? '' : String(p.temperature),
    max_tokens: p.max_tokens ? String(p.max_tokens) : '',
    timeout: p.timeout && Number.isFinite(secs) ? String(secs) : '',
    key: '',
  };
}

/** The form as a profile, or the first problem with it. */
export function formToProfile(f: Form): Profile | string {
  const p: Profile = { name: f.name.trim(), provider: f.provider, base_url: f.base_url.trim(), model: f.model.trim() };
  if (f.temperature.trim() !== '') {
    const t = Number(f.temperature);
    if (!Number.isFinite(t)) return 'Temperature must be a number.';
    p.temperature = t;
  }
  if (f.max_tokens.trim() !== '') {
    const n = Number(f.max_tokens);
    if (!Number.isInteger(n)) return 'Max tokens must be a whole number.';
    p.max_tokens = n;
  }
  if (f.timeout.trim() !== '') {
    const s = Number(f.timeout);
    if (!Number.isFinite(s)) return 'Timeout must be a number of seconds.';
    p.timeout = `${s}s`;
  }
  return p;
}

export function formatLatency(ns: number): string {
  const ms = ns / 1e6;
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function ConnectionResultView({ result }: { result: ConnectionResult | string }) {
  if (typeof result === 'string') return <div className="mrun-conn mrun-conn-err" role="alert" data-testid="conn-result">✗ {result}</div>;
  return (
    <div className={`mrun-conn ${result.ok ? 'mrun-conn-ok' : 'mrun-conn-err'}`} role="status" data-testid="conn-result">
      {result.ok ? '✓ ' : '✗ '}{result.message}
      {result.ok && <> · {formatLatency(result.latency)}</>}
      {result.reply && <> · reply: <q>{result.reply}</q></>}
    </div>
  );
}

interface Props {
  onClose: () => void;
  /** after a save or delete, with the new list */
  onChanged?: (profiles: ProfileInfo[]) => void;
}

export function SettingsDialog({ onClose, onChanged }: Props) {
  const [profiles, setProfiles] = useState<ProfileInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ original: string | null; form: Form } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, ConnectionResult | string | 'testing'>>({});
  const ref = useRef<HTMLDivElement>(null);

  const reload = useCallback(() => run.listProfiles().then((l) => { setProfiles(l); setLoadError(null); onChanged?.(l); return l; }).catch((e: unknown) => { setLoadError(String(e)); return null; }), [onChanged]);
  useEffect(() => { void reload(); ref.current?.focus(); }, [reload]);

  const set = (k: keyof Form) => (e: { target: { value: string } }) => setEditing((ed) => (ed ? { ...ed, form: { ...ed.form, [k]: e.target.value } } : ed));

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const p = formToProfile(editing.form);
    if (typeof p === 'string') { setFormError(p); return; }
    setSaving(true);
    run.saveProfile(p, editing.form.key)
      .then(() => { setEditing(null); setFormError(null); return reload(); })
      .catch((err: unknown) => setFormError(String(err)))
      .finally(() => setSaving(false));
  };
  const remove = (name: string) => {
    run.deleteProfile(name).then(() => { setConfirmDelete(null); return reload(); }).catch((err: unknown) => setLoadError(String(err)));
  };
  const test = (name: string) => {
    setTests((t) => ({ ...t, [name]: 'testing' }));
    run.testConnection(name).then((r) => setTests((t) => ({ ...t, [name]: r }))).catch((err: unknown) => setTests((t) => ({ ...t, [name]: String(err) })));
  };

  const f = editing?.form;
  return (
    <div className="overlay" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className="dialog mrun-settings" role="dialog" aria-modal="true" aria-label="Model endpoints" tabIndex={-1} ref={ref}
        onKeyDown={(e) => { if (e.key === 'Escape') { e.stopPropagation(); if (editing) setEditing(null); else onClose(); } }}>
        <header>
          <h2>Model endpoints</h2>
          <button type="button" className="iconbtn" aria-label="Close" onClick={onClose}>✕</button>
        </header>
        {loadError && <div className="mrun-error" role="alert">{loadError}</div>}
        {profiles === null ? <p className="muted">Loading…</p> : profiles.length === 0 && !editing ? (
          <p className="muted">No endpoints yet. Add one: any OpenAI-compatible server (OpenAI, DeepSeek, Qwen, Ollama, vLLM, llama.cpp) or Anthropic.</p>
        ) : (
          <ul className="mrun-profiles" aria-label="Profiles">
            {profiles.map((p) => {
              const t = tests[p.name];
              return (
                <li key={p.name} data-testid={`profile-${p.name}`}>
                  <div className="mrun-profile-row">
                    <b>{p.name}</b>
                    <span className="muted small">{p.provider} · {p.model} · {p.base_url}</span>
                    <span className={`badge mrun-key mrun-key-${p.key_source}`} title={p.key_source === 'env' ? `from ${ENV_OF[p.provider]}` : undefined}>{KEY_LABELS[p.key_source]}</span>
                    <span className="spacer" />
                    <button type="button" className="btn" onClick={() => test(p.name)} disabled={t === 'testing'}>{t === 'testing' ? 'Testing…' : 'Test connection'}</button>
                    <button type="button" className="btn" onClick={() => { setEditing({ original: p.name, form: toForm(p) }); setFormError(null); }}>Edit</button>
                    <button type="button" className="btn" onClick={() => setConfirmDelete(p.name)}>Delete</button>
                  </div>
                  {confirmDelete === p.name && (
                    <div className="mrun-confirm" role="alertdialog" aria-label={`Delete ${p.name}`}>
                      Delete profile “{p.name}” and its stored key?
                      <button type="button" className="btn danger" onClick={() => remove(p.name)}>Delete</button>
                      <button type="button" className="btn" onClick={() => setConfirmDelete(null)}>Keep</button>
                    </div>
                  )}
                  {t && t !== 'testing' && <ConnectionResultView result={t} />}
                </li>
              );
            })}
          </ul>
        )}
        {f ? (
          <form className="mrun-form" onSubmit={save} aria-label={editing.original ? `Edit ${editing.original}` : 'New profile'}>
            <h3>{editing.original ? `Edit “${editing.original}”` : 'New endpoint'}</h3>
            <label>Name<input value={f.name} onChange={set('name')} readOnly={editing.original !== null} required placeholder="local-ollama" /></label>
            <label>Provider
              <select value={f.provider} onChange={set('provider')}>
                <option value="openai">OpenAI-compatible (Chat Completions)</option>
                <option value="anthropic">Anthropic (Messages)</option>
              </select>
            </label>
            <label>Base URL<input value={f.base_url} onChange={set('base_url')} placeholder={DEFAULT_URL[f.provider]} /></label>
            <label>Model<input value={f.model} onChange={set('model')} placeholder={f.provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5'} /></label>
            <div className="mrun-form-row">
              <label>Temperature<input value={f.temperature} onChange={set('temperature')} inputMode="decimal" placeholder="default" /></label>
              <label>Max tokens<input value={f.max_tokens} onChange={set('max_tokens')} inputMode="numeric" placeholder="default" /></label>
              <label>Timeout (s)<input value={f.timeout} onChange={set('timeout')} inputMode="decimal" placeholder="default" /></label>
            </div>
            <label>API key
              <input type="password" autoComplete="off" value={f.key} onChange={set('key')}
                placeholder={editing.original ? 'leave empty to keep the stored key' : `leave empty to use ${ENV_OF[f.provider]}`} />
            </label>
            <p className="muted small">The key goes to the OS keyring, never to a file; it is not shown again.</p>
            {formError && <div className="mrun-error" role="alert" data-testid="profile-error">{formError}</div>}
            <div className="mrun-actions">
              <button type="submit" className="btn primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
              <button type="button" className="btn" onClick={() => { setEditing(null); setFormError(null); }}>Cancel</button>
            </div>
          </form>
        ) : (
          <div className="mrun-actions">
            <button type="button" className="btn primary" onClick={() => { setEditing({ original: null, form: { ...blank } }); setFormError(null); }}>Add endpoint</button>
          </div>
        )}
        <PolicySettings />
        <UserHooksSettings />
        <ClaudeUserSettings />
        <AgentUserFiles />
        <AgentsSettings />
      </div>
    </div>
  );
}
