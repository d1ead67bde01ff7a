// A Claude Code 2.1.332 transcript of about `size` bytes, as app/capture/sessions' writeSynthetic
// writes one for its benchmarks: one prompt, then call after call a Bash call and its 24 KB output,
// every tenth a PostToolUse hook's context, each request recorded as the CLI records it
// (api-request with base, keep and tail: the hashes of the messages new to it; api-request-blob
// for what no record holds). For the e2e tests and benches that open a session of the size
// people have.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';

const RESULT = 24 << 10;

/** JSON with every object's keys in order: how Claude Code names a message (sessions/hash.go). */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function messageHash(role, content) {
  const c = typeof content === 'string' ? [{ text: content, type: 'text' }] : content;
  return createHash('sha256').update(`{"content":${canonical(c)},"role":${JSON.stringify(role)}}`).digest('hex');
}

/** Writes the transcript to path; resolves to its number of calls. */
export async function writeSyntheticSession(path, size = 50 << 20) {
  const out = createWriteStream(path);
  let written = 0;
  const emit = async (v) => {
    const line = `${JSON.stringify(v)}\n`;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  };
  const t0 = Date.parse('2026-11-26T09:00:00Z');
  const at = (i) => new Date(t0 + i * 1000).toISOString();
  const base = { sessionId: 'synthetic-50mb', version: '2.1.332', cwd: '/home/user/project', entrypoint: 'sdk-cli', isSidechain: false };
  const rec = (fields) => ({ ...base, ...fields });
  const tools = Array.from({ length: 24 }, (_, i) => ({
    name: `Tool${String(i).padStart(2, '0')}`, description: 'What the tool does and when to use it. '.repeat(40),
    input_schema: { type: 'object', properties: { command: { type: 'string' } } },
  }));
  await emit(rec({ type: 'api-request-shape', shapeHash: 'shape-1', timestamp: at(0),
    shape: { system: [{ type: 'text', text: 'You are an agent under test.' }, { type: 'text', text: "Follow the project's rules. ".repeat(300) }], tools } }));
  const prompt = 'tidy the repository and keep the build green';
  await emit(rec({ type: 'user', uuid: 'u-0', parentUuid: null, timestamp: at(0), message: { role: 'user', content: prompt } }));
  const params = { model: 'claude-opus-5-5', betas: ['claude-code-20250219'], max_tokens: 128000 };
  let reqId = 'req-0', keep = 0, tail = [messageHash('user', prompt)], parent = 'u-0', calls = 0;
  for (let i = 0; ; i++) {
    const r = { type: 'api-request', id: reqId, timestamp: at(i), querySource: 'sdk', shapeHash: 'shape-1', params, keep, tail };
    if (i > 0) r.base = `req-${i - 1}`;
    await emit(rec(r));
    calls++;
    keep += tail.length;
    if (written >= size) {
      await emit(rec({ type: 'assistant', uuid: `a-${i}`, parentUuid: parent, timestamp: at(i), requestRef: reqId,
        message: { id: `msg_${i}`, role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: 'The tree is clean.' }] } }));
      break;
    }
    const use = [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `cat src/file${i}.go` } }];
    await emit(rec({ type: 'assistant', uuid: `a-${i}`, parentUuid: parent, timestamp: at(i), requestRef: reqId,
      message: { id: `msg_${i}`, role: 'assistant', model: 'claude-opus-5-5', content: use } }));
    const output = `// file${i}.go\n${`func f${i}() { return ${i} } // line of generated code\n`.repeat(Math.floor(RESULT / 52))}`;
    const result = [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: output, is_error: false }];
    await emit(rec({ type: 'user', uuid: `r-${i}`, parentUuid: `a-${i}`, timestamp: at(i), message: { role: 'user', content: result } }));
    parent = `r-${i}`;
    tail = [messageHash('assistant', use), messageHash('user', result)];
    if (i % 10 === 9) {
      const cmd = './hooks/check-output.sh', ctx = `file${i}.go has no tests yet`;
      await emit(rec({ type: 'attachment', uuid: `h-${i}`, parentUuid: parent, timestamp: at(i), attachment: { type: 'hook_success', hookName: 'PostToolUse:Bash',
        hookEvent: 'PostToolUse', toolUseID: `toolu_${i}`, content: '', exitCode: 0, command: cmd, durationMs: 12, stderr: '',
        stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"${ctx}"}}` } }));
      await emit(rec({ type: 'attachment', uuid: `c-${i}`, parentUuid: `h-${i}`, timestamp: at(i),
        attachment: { type: 'hook_additional_context', hookName: 'PostToolUse:Bash', hookEvent: 'PostToolUse', toolUseID: `toolu_${i}`, content: [ctx] } }));
      parent = `c-${i}`;
      const sys = [{ type: 'text', text: `PostToolUse:Bash hook additional context: ${ctx}` }];
      const h = messageHash('system', sys);
      await emit(rec({ type: 'api-request-blob', hash: h, message: { role: 'system', content: sys } }));
      tail.push(h);
    }
    reqId = `req-${i + 1}`;
  }
  await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
  return calls;
}
