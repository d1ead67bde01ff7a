// The settings' request policy hook (seed 004): a rate limit per minute, a token quota and
// allow/deny lists of model globs, applied to every run with request hooks (a scenario's own
// request_policy applies when this is empty).
import { useEffect, useState, type FormEvent } from 'react';
import { requestPolicy, setRequestPolicy, type PolicyConfig } from '../lib/api/requests';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const num = (s: string) => (s.trim() === '' ? 0 : Number(s));

export function PolicySettings() {
  const [form, setForm] = useState<{ rate: string; quota: string; allow: string; deny: string } | null>(null);
  const [msg, setMsg] = useState<{ text: string; err: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    requestPolicy().then((p) => {
      if (live && p) setForm({ rate: p.rate_limit_per_minute ? String(p.rate_limit_per_minute) : '', quota: p.token_quota ? String(p.token_quota) : '', allow: (p.allow ?? []).join(', '), deny: (p.deny ?? []).join(', ') });
    }).catch(() => {});
    return () => { live = false; };
  }, []);
  if (!form) return null;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const cfg: PolicyConfig = { rate_limit_per_minute: num(form.rate), token_quota: num(form.quota), allow: list(form.allow), deny: list(form.deny) };
    if (!Number.isInteger(cfg.rate_limit_per_minute) || !Number.isInteger(cfg.token_quota) || cfg.rate_limit_per_minute! < 0 || cfg.token_quota! < 0) {
      setMsg({ text: 'rate limit and quota are whole numbers', err: true });
      return;
    }
    try {
      await setRequestPolicy(cfg);
      setMsg({ text: 'saved: the next run uses it', err: false });
    } catch (err) {
      setMsg({ text: String(err instanceof Error ? err.message : err), err: true });
    }
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  return (
    <form className="mrun-form" onSubmit={(e) => void save(e)} aria-label="Request policy">
      <h3>Request policy</h3>
      <p className="muted small">Checked when each model request starts (request hooks): a denied request fails its call with 403 (model) or 429 (rate limit, quota).</p>
      <div className="mrun-form-row">
        <label>Requests per minute<input value={form.rate} onChange={set('rate')} inputMode="numeric" placeholder="no limit" /></label>
        <label>Token quota<input value={form.quota} onChange={set('quota')} inputMode="numeric" placeholder="no quota" /></label>
      </div>
      <label>Allow models<input value={form.allow} onChange={set('allow')} placeholder="any (e.g. gpt-4o-mini, claude-*)" /></label>
      <label>Deny models<input value={form.deny} onChange={set('deny')} placeholder="none (e.g. gpt-4o*)" /></label>
      {msg && <div className={msg.err ? 'mrun-error' : 'muted small'} role={msg.err ? 'alert' : 'status'}>{msg.text}</div>}
      <div className="mrun-actions"><button type="submit" className="btn">Save policy</button></div>
    </form>
  );
}
