#!/usr/bin/env node
// Stop gate: read the transcript for the last test run (a Bash tool_use
// running npm test) and its tool_result; while that result reports failing
// tests, send the model back once (stop_hook_active lets go after that).
const fs = require('fs');

function entries(transcript) {
  const out = [];
  for (const line of fs.readFileSync(transcript, 'utf8').split('\n')) {
    try { out.push(JSON.parse(line)); } catch { /* a partial or empty line */ }
  }
  return out;
}

// The transcript once it holds the answer Stop is about: the CLI may still
// be writing it when the hook starts (bounded wait).
function settled(input) {
  const deadline = Date.now() + 3000;
  for (;;) {
    const all = entries(input.transcript_path);
    const texts = all.filter((e) => e.message && e.message.role === 'assistant' && Array.isArray(e.message.content))
      .map((e) => e.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n'))
      .filter((t) => t);
    if (input.last_assistant_message === undefined || texts[texts.length - 1] === input.last_assistant_message || Date.now() > deadline) {
      return all;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

function lastTestResult(all) {
  const testCalls = new Set();
  let result = null;
  for (const entry of all) {
    const content = entry.message && entry.message.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (block.type === 'tool_use' && block.name === 'Bash' && /\bnpm (run )?test\b/.test((block.input || {}).command || '')) {
        testCalls.add(block.id);
      }
      if (block.type === 'tool_result' && testCalls.has(block.tool_use_id)) {
        result = typeof block.content === 'string' ? block.content
          : (block.content || []).map((c) => c.text || '').join('\n');
      }
    }
  }
  return result;
}

let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  if (input.stop_hook_active) return;
  let result = null;
  try { result = lastTestResult(settled(input)); } catch { return; }
  const failing = result && result.match(/(\d+) failing/);
  if (failing) {
    console.log(JSON.stringify({ decision: 'block', reason: `${failing[1]} test(s) still fail: fix them before you finish.` }));
  }
});
