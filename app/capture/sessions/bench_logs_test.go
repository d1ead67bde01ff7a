package sessions

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeSyntheticLog writes a log of agent of about size bytes, as the
// pinned CLI writes one: a prompt, then call after call a shell call and
// its output (synthResult), every tenth a hook's context after it. It
// returns the number of calls.
func writeSyntheticLog(t testing.TB, agent Agent, path string, size int64) int {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := &countingWriter{w: bufio.NewWriterSize(f, 1<<20)}
	enc := json.NewEncoder(out)
	emit := func(v any) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	ts := func(i int) string { return fmt.Sprintf("2026-11-29T05:%02d:%02d.000Z", i/60%60, i%60) }
	output := func(i int) string { return fmt.Sprintf("file %d:\n%s", i, strings.Repeat("x", synthResult)) }
	hookWords := "post context: the build folder is shared with CI"
	args := map[string]string{"command": "cat file.txt", "description": "Show the file"}
	calls := 0
	switch agent {
	case GeminiCLI:
		emit(map[string]any{"sessionId": "s", "projectHash": "h", "startTime": ts(0), "lastUpdated": ts(0), "kind": "main"})
		emit(map[string]any{"id": "u0", "timestamp": ts(0), "type": "user", "content": []any{map[string]string{"text": "read every file"}}})
		for i := 1; out.n < size; i++ {
			id := fmt.Sprintf("call_%d", i)
			emit(map[string]any{"id": fmt.Sprintf("g%d", i), "timestamp": ts(i), "type": "gemini", "content": "", "model": "gemini",
				"toolCalls": []any{map[string]any{"id": id, "name": "run_shell_command", "args": args}}})
			out := output(i)
			if i%10 == 0 {
				out += "\n\n<hook_context>" + hookWords + "</hook_context>"
			}
			emit(map[string]any{"id": fmt.Sprintf("r%d", i), "timestamp": ts(i), "type": "user",
				"content": []any{map[string]any{"functionResponse": map[string]any{"id": id, "name": "run_shell_command", "response": map[string]string{"output": out}}}}})
			calls++
		}
	case QwenCode:
		parent := ""
		rec := func(uuid, typ string, msg any) {
			r := map[string]any{"uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": ts(calls), "type": typ, "provenance": typ,
				"cwd": "/home/user/project", "version": "0.24.4", "message": msg, "model": "qwen"}
			if parent == "" {
				r["parentUuid"] = nil
			}
			emit(r)
			parent = uuid
		}
		rec("u0", "user", map[string]any{"role": "user", "parts": []any{map[string]string{"text": "read every file"},
			map[string]string{"text": "<qwen:user-prompt-submit-context>\n" + hookWords + "\n</qwen:user-prompt-submit-context>"}}})
		for i := 1; out.n < size; i++ {
			id := fmt.Sprintf("call_%d", i)
			rec(fmt.Sprintf("a%d", i), "assistant", map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"id": id, "name": "run_shell_command", "args": args}}}})
			rec(fmt.Sprintf("t%d", i), "tool_result", map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"id": id, "response": map[string]string{"output": output(i)}}}}})
			calls++
		}
	case CopilotCLI:
		ev := func(i int, typ string, data any) {
			emit(map[string]any{"type": typ, "data": data, "id": fmt.Sprintf("e%d", out.n), "timestamp": ts(i)})
		}
		ev(0, "session.start", map[string]any{"sessionId": "s", "copilotVersion": "1.0.102", "selectedModel": "m", "context": map[string]string{"cwd": "/home/user/project"}})
		ev(0, "user.message", map[string]any{"content": "read every file", "transformedContent": "read every file"})
		ev(0, "system.message", map[string]any{"role": "system", "content": "the system prompt"})
		for i := 1; out.n < size; i++ {
			id := fmt.Sprintf("call_%d", i)
			ev(i, "assistant.message", map[string]any{"content": "", "model": "m", "toolRequests": []any{map[string]any{"toolCallId": id, "name": "bash", "arguments": args}}})
			out := output(i)
			if i%10 == 0 {
				hid := fmt.Sprintf("h%d", i)
				ev(i, "hook.start", map[string]any{"hookInvocationId": hid, "hookType": "postToolUse", "input": map[string]string{"toolName": "bash"}})
				ev(i, "hook.end", map[string]any{"hookInvocationId": hid, "hookType": "postToolUse", "success": true, "output": map[string]string{"additionalContext": hookWords}})
				out += "\n\nTool \"bash\" succeeded. Additional guidance from postToolUse hooks:\n" + hookWords
			}
			ev(i, "tool.execution_complete", map[string]any{"toolCallId": id, "success": true, "result": map[string]string{"content": out}})
			calls++
		}
	default:
		t.Fatalf("no synthetic log of %s", agent)
	}
	if err := out.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return calls
}

// countingWriter counts what is written through it.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BenchmarkImportLogs20MB: a 20 MB Gemini CLI, Qwen Code and Copilot CLI
// log read (streamed) into a trace: MB/s and what stays live after it, per
// MB of file.
func BenchmarkImportLogs20MB(b *testing.B) {
	for _, agent := range []Agent{GeminiCLI, QwenCode, CopilotCLI} {
		b.Run(string(agent), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "log.jsonl")
			calls := writeSyntheticLog(b, agent, path, 20<<20)
			st, _ := os.Stat(path)
			b.SetBytes(st.Size())
			b.ResetTimer()
			var kept uint64
			for range b.N {
				im, err := ImportFile(context.Background(), path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				tr, err := im.Trace()
				if err != nil || len(tr.Calls) != calls || im.Session().Agent != agent {
					b.Fatalf("%v: %d calls of %d", err, len(tr.Calls), calls)
				}
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				kept = ms.HeapAlloc
				runtime.KeepAlive(im)
			}
			b.ReportMetric(float64(kept)/float64(st.Size()), "kept-MB/file-MB")
			b.ReportMetric(float64(calls), "calls")
		})
	}
}
