// Writes src/fixtures/seed-diagrams.json: the TraceView (docs/trace-view.md) of the
// conformance case shared/conformance/seed-diagrams, laid out step by step the way the
// Go engine records it. The file is committed; this script only documents how it was
// written. Token counts are a rough stand-in (the backend uses a real tokenizer).
// Run: node scripts/make-fixture.mjs, then HOOKSTUDIO_UPDATE_FIXTURES=1 go test ./app/services/studio -run
// TestFrontendFixturesFlow to add the flow the backend gives the run (its loop, each step's node).
import { writeFileSync } from 'node:fs';

const skill = 'demo';
const hooks = [
  { name: 'user-context', file: 'user-context.md', timing: 'after_user_input', role: 'system', persistent: false, content: 'The user prefers short answers.', line: 3 },
  { name: 'memory', file: 'memory.md', timing: 'after_user_input', role: 'system', persistent: true, content: 'Remember: the user works on project Atlas.', line: 4 },
  { name: 'plan-style', file: 'plan-style.md', timing: 'before_planning', role: 'system', persistent: false, content: 'Plan in at most three bullet points.', line: 5 },
  { name: 'loop-rules', file: 'loop-rules.md', timing: 'before_first_agent', role: 'system', persistent: false, content: 'Use tools only when they are needed.', line: 6 },
  { name: 'step-reminder', file: 'step-reminder.md', timing: 'before_each_agent', role: 'user', persistent: false, content: 'Check the previous tool result before the next call.', line: 7 },
  { name: 'truncated-content-hint', file: 'truncated-content-hint.md', timing: 'after_tool_call', role: 'system', persistent: false, tool_filter: ['read_file', 'search_text'], content: 'The tool output may be truncated; read it again with an offset if needed.', line: 8 },
].map((h) => ({ skill, ...h }));
const checkpoint = { after_user_input: 1, before_planning: 2, before_each_agent: 3, before_first_agent: 4, after_tool_call: 5 };
const prompts = {
  planning: 'Decide whether tools are needed. Answer with a short plan.',
  first_step: 'You may now call tools. Start with the first step of your plan.',
  agent_loop: 'Continue: look at the tool results and decide the next step.',
};
const system = 'You are a coding assistant.';
const requests = [
  { user: 'What does main.go do?', enabled: null, planning: { need_tool: true, content: 'I will read main.go.' },
    rounds: [
      { tool_calls: [{ name: 'read_file', arguments: { path: 'main.go' }, result: 'package main ... (truncated)' }] },
      { tool_calls: [{ name: 'list_dir', arguments: { path: '.' }, result: 'main.go go.mod' }] },
      { content: 'It starts the server.' },
    ] },
  { user: 'Thanks', enabled: null, planning: { need_tool: false, content: 'You are welcome.' } },
  { user: 'Nothing else.', enabled: [], planning: { need_tool: false, content: 'Bye.' } },
];

const tokens = (s) => Math.ceil(Buffer.byteLength(s, 'utf8') / 4) + 4;
const messages = [], steps = [], calls = [], reqInfos = [];
let history = [];
let pos = { request: 0, phase: undefined, round: null };

function begin(kind, extra = {}) {
  const s = { index: steps.length, kind, request: pos.request, ...(pos.phase ? { phase: pos.phase } : {}), round: pos.round, call: null, ...extra, added: [], removed: [] };
  steps.push(s);
  return s;
}
function add(m) {
  const s = steps[steps.length - 1];
  const msg = { id: messages.length, ...m, request: pos.request, created: s.index, removed: null, tokens: tokens(m.content) };
  messages.push(msg);
  s.added.push(msg.id);
  return msg;
}
function remove(id) {
  const s = steps[steps.length - 1];
  messages[id].removed = s.index;
  s.removed.push(id);
}

requests.forEach((rq, r) => {
  pos = { request: r, phase: undefined, round: null };
  const enabled = rq.enabled;
  const active = enabled === null || enabled.includes(skill) ? hooks : [];
  const info = { index: r, user: rq.user, enabled_skills: enabled, calls: [], yielded: [], reply: '', first_step: steps.length, last_step: 0 };
  const injected = {};
  const yielded = [];
  const inject = (timing, tool) => {
    const s = begin('inject', { timing, checkpoint: checkpoint[timing], ...(tool ? { tool } : {}) });
    const persistent = [];
    for (const h of active) {
      if (h.timing !== timing) continue;
      if (timing === 'after_tool_call' && h.tool_filter && !h.tool_filter.includes(tool)) continue;
      const m = add({ role: h.role, content: h.content, origin: 'hook', hook: h.name, skill, timing, ...(h.persistent ? { persistent: true } : {}) });
      (s.hooks ??= []).push(`${skill}/${h.name}`);
      if (h.persistent) persistent.push(m.id); else (injected[timing] ??= []).push(m.id);
    }
    for (const id of persistent) {
      begin('yield', { timing, hooks: [`${skill}/${messages[id].hook}`], yield: id });
      info.yielded.push(messages[id].hook);
      yielded.push(id);
    }
  };
  const removeTiming = (timing) => {
    begin('remove', { timing, checkpoint: checkpoint[timing] });
    for (const id of injected[timing] ?? []) remove(id);
    injected[timing] = [];
  };
  const injectPrompt = (p) => { begin('inject_prompt', { prompt: p }); return add({ role: 'system', content: prompts[p], origin: 'prompt', prompt: p }).id; };
  const removePrompt = (id) => { begin('remove_prompt', { prompt: messages[id].prompt }); remove(id); };
  const call = (answer) => {
    const ci = calls.length;
    const s = begin('llm_call', { call: ci });
    const live = messages.filter((m) => m.request === r && m.created <= s.index && (m.removed === null || m.removed > s.index));
    const c = { index: ci, request: r, phase: pos.phase, round: pos.round, step: s.index, content: answer.content ?? '', tokens: live.reduce((a, m) => a + m.tokens, 0) + 3 };
    if (answer.tool_calls) c.tool_calls = answer.tool_calls.map((tc, k) => ({ id: `call_${r}_${pos.round}_${k}`, ...tc }));
    if (pos.phase === 'planning') c.need_tool = answer.need_tool;
    calls.push(c);
    info.calls.push(ci);
    return c;
  };

  begin('build_messages');
  add({ role: 'system', content: system, origin: 'system_prompt' });
  for (const h of history) add(h);
  add({ role: 'user', content: rq.user, origin: 'user_input' });
  inject('after_user_input');

  pos.phase = 'planning';
  inject('before_planning');
  const pref = injectPrompt('planning');
  const plan = call(rq.planning);
  removePrompt(pref);
  removeTiming('before_planning');
  let reply = plan.content;
  if (rq.planning.need_tool) {
    pos.phase = 'agent';
    for (let round = 0; ; round++) {
      pos.round = round;
      removeTiming('before_each_agent');
      inject('before_each_agent');
      if (round === 0) inject('before_first_agent');
      const ref = injectPrompt(round === 0 ? 'first_step' : 'agent_loop');
      const ans = rq.rounds[round] ?? { content: 'Done.' };
      const c = call(ans);
      if (!c.tool_calls) { removePrompt(ref); reply = c.content; break; }
      begin('append');
      add({ role: 'assistant', content: c.content, origin: 'assistant', tool_calls: c.tool_calls });
      for (const tc of c.tool_calls) {
        begin('tool_call', { tool: tc.name });
        add({ role: 'tool', content: tc.result, origin: 'tool', tool: tc.name, tool_call_id: tc.id });
      }
      removeTiming('after_tool_call');
      for (const tc of c.tool_calls) inject('after_tool_call', tc.name);
      removePrompt(ref);
    }
    pos.round = null;
    removeTiming('before_first_agent');
    removeTiming('after_tool_call');
  }
  begin('reply');
  info.reply = reply;
  info.last_step = steps.length - 1;
  reqInfos.push(info);
  history = [...history, { role: 'user', content: rq.user, origin: 'history', history_of: 'user_input' },
    ...yielded.map((id) => ({ role: messages[id].role, content: messages[id].content, origin: 'history', history_of: 'hook', hook: messages[id].hook, skill, timing: messages[id].timing, persistent: true })),
    { role: 'assistant', content: reply, origin: 'history', history_of: 'assistant' }];
});

// Visibility matrix: copies of each hook's message (history copies included) per call.
const hookIds = hooks.map((h) => `${skill}/${h.name}`);
const copies = hookIds.map(() => calls.map(() => 0));
const tok = hookIds.map(() => calls.map(() => 0));
for (const c of calls) {
  for (const m of messages) {
    if (m.request !== c.request || m.created > c.step || (m.removed !== null && m.removed <= c.step) || !m.hook) continue;
    const h = hookIds.indexOf(`${m.skill}/${m.hook}`);
    copies[h][c.index]++;
    tok[h][c.index] += m.tokens;
  }
}
const view = {
  revision: 3,
  scenario: 'seed-diagrams',
  file: 'demo/scenarios/seed-diagrams.yaml',
  status: 'ok',
  diagnostics: [],
  hooks,
  messages,
  steps,
  calls,
  requests: reqInfos,
  matrix: { hooks: hookIds, systems: hookIds.map(() => ''), copies, tokens: tok, totals: tok.map((row) => row.reduce((a, b) => a + b, 0)) },
  changes: [
    { call: 2, added: 0, removed: 0, changed: 1, summary: 'demo/truncated-content-hint: content changed' },
  ],
  tools: [...new Set(steps.flatMap((s) => (s.tool ? [s.tool] : [])))].sort(),
  draft: false,
  exec: { ran: false, hooks: [], metrics: null, duration_ms: 0 },
  pending: false,
  expectations: null,
};
writeFileSync(new URL('../src/fixtures/seed-diagrams.json', import.meta.url), JSON.stringify(view, null, 1) + '\n');
console.log(`${steps.length} steps, ${messages.length} messages, ${calls.length} calls`);
