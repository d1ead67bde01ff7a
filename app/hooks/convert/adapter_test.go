package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// awks are the awk programs the adapter must run under, each as the awk of
// a PATH: the machine's own, and the others installed here (mawk: Debian,
// gawk: most Linux, original-awk: the one of macOS and the BSDs, BusyBox:
// Alpine). The machine's own always runs.
func awks(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	if p, err := exec.LookPath("awk"); err == nil {
		out["awk"] = []string{p}
	} else {
		t.Fatal("no awk on this machine: the adapter needs one")
	}
	for _, name := range []string{"mawk", "gawk", "original-awk"} {
		if p, err := exec.LookPath(name); err == nil {
			out[name] = []string{p}
		}
	}
	if p, err := exec.LookPath("busybox"); err == nil {
		out["busybox"] = []string{p, "awk"}
	}
	return out
}

// pathWith is a PATH whose awk is argv.
func pathWith(t testing.TB, argv []string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nexec " + strings.Join(argv, " ") + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "awk"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// hookAnswer is what the Claude Code hook under the adapter does.
type hookAnswer struct {
	stdout, stderr string
	code           int
}

// adapterCase is one hook run through the adapter: the Claude Code event,
// the agent's input (by target), and the hook's answer.
type adapterCase struct {
	name  string
	event string
	input map[string]string
	hook  hookAnswer
}

// inputs are the agents' stdin for one moment, as each sends it (seen:
// docs/agents/*.md, Copilot CLI 1.0.102's PascalCase events).
var (
	preBash = map[string]string{
		GeminiCLI:  `{"session_id":"s1","transcript_path":"/h/chat.json","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-29T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","is_background":false}}`,
		CopilotCLI: `{"hook_event_name":"PreToolUse","session_id":"s1","timestamp":"2026-11-29T00:00:00.000Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf build","description":"Remove"}}`,
		QwenCode:   `{"session_id":"s1","transcript_path":"/h/s1.jsonl","cwd":"/p","hook_event_name":"PreToolUse","timestamp":"2026-11-29T00:00:00.000Z","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","is_background":false,"description":"Remove"},"tool_use_id":"c1","tool_call_id":"c1"}`,
	}
	preWrite = map[string]string{
		GeminiCLI:  `{"session_id":"s1","cwd":"/p","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/p/a.txt","content":"x"}}`,
		CopilotCLI: `{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_name":"Write","tool_input":{"file_text":"x","path":"/p/a.txt"}}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"write_file","tool_input":{"file_path":"/p/a.txt","content":"x"}}`,
	}
	postEdit = map[string]string{
		GeminiCLI:  `{"session_id":"s1","cwd":"/p","hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"/p/a.txt","old_string":"a","new_string":"b"},"tool_response":{"llmContent":"ok","returnDisplay":"ok"}}`,
		CopilotCLI: `{"hook_event_name":"PostToolUse","session_id":"s1","cwd":"/p","tool_name":"Edit","tool_input":{"new_str":"b","old_str":"a","path":"/p/a.txt"},"tool_result":{"result_type":"success","text_result_for_llm":"File /p/a.txt updated with changes."}}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"edit","tool_input":{"file_path":"/p/a.txt","old_string":"a","new_string":"b"},"tool_response":{"llmContent":"ok"}}`,
	}
	prompt = map[string]string{
		GeminiCLI:  `{"session_id":"s1","cwd":"/p","hook_event_name":"BeforeAgent","prompt":"clean the build folder"}`,
		CopilotCLI: `{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/p","prompt":"clean the build folder"}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"clean the build folder","submitted_prompt":"clean the build folder"}`,
	}
	stop = map[string]string{
		GeminiCLI:  `{"session_id":"s1","transcript_path":"/h/chat.json","cwd":"/p","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"Done.","stop_hook_active":false}`,
		CopilotCLI: `{"hook_event_name":"Stop","session_id":"s1","cwd":"/p","transcript_path":"/h/events.jsonl","stop_reason":"end_turn","stop_hook_active":false}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done."}`,
	}
	start = map[string]string{
		GeminiCLI:  `{"session_id":"s1","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`,
		CopilotCLI: `{"hook_event_name":"SessionStart","session_id":"s1","cwd":"/p","source":"new","initial_prompt":"p"}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`,
	}
	// Copilot CLI's notification has no PascalCase form: camelCase keys
	notification = map[string]string{
		GeminiCLI:  `{"session_id":"s1","cwd":"/p","hook_event_name":"Notification","message":"m"}`,
		CopilotCLI: `{"sessionId":"s1","timestamp":1764374400000,"cwd":"/p","message":"m","notificationType":"idle"}`,
		QwenCode:   `{"session_id":"s1","cwd":"/p","hook_event_name":"Notification","message":"m"}`,
	}
)

var adapterCases = []adapterCase{
	{"exit 2 denies the call, stderr the reason", "PreToolUse", preBash,
		hookAnswer{stderr: "Recursive deletes are blocked here; delete the files you mean one by one.\n", code: 2}},
	{"a permission decision", "PreToolUse", preBash,
		hookAnswer{stdout: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "Use \"make clean\" instead."}}` + "\n"}},
	{"the old decision block", "PreToolUse", preBash,
		hookAnswer{stdout: `{"decision": "block", "reason": "No."}`}},
	{"allowed, the input changed", "PreToolUse", preWrite,
		hookAnswer{stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/p/b.txt","content":"y"}},"suppressOutput":true}`}},
	{"a context, with quotes and braces in it", "PostToolUse", postEdit,
		hookAnswer{stdout: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Run \"npm test\" {then} [lint]"}, "systemMessage": "noted"}`}},
	{"exit 2 after the call: stderr for the model", "PostToolUse", postEdit,
		hookAnswer{stderr: "The file is generated: edit its source.\n", code: 2}},
	{"a block after the call: its reason for the model", "PostToolUse", postEdit,
		hookAnswer{stdout: `{"decision":"block","reason":"Format it first.","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"npm run fmt"}}`}},
	{"plain stdout is context", "UserPromptSubmit", prompt,
		hookAnswer{stdout: "Branch: main\n\tTabs, \"quotes\", a back\\slash, été and a bell \a.\n\n"}},
	{"exit 2 blocks the prompt", "UserPromptSubmit", prompt,
		hookAnswer{stderr: "No prompts after six.\n", code: 2}},
	{"a stop blocked", "Stop", stop,
		hookAnswer{stdout: `{"decision": "block", "reason": "Run the tests (npm test) before you finish."}`}},
	{"exit 2 blocks the stop", "Stop", stop,
		hookAnswer{stderr: "Run the tests first.\n", code: 2}},
	{"a session's context", "SessionStart", start,
		hookAnswer{stdout: "The build folder is shared with CI.\n"}},
	{"exit 2 at session start is a warning", "SessionStart", start,
		hookAnswer{stderr: "no cache\n", code: 2}},
	{"a failing hook is a warning, its stdout dropped", "PreToolUse", preBash,
		hookAnswer{stdout: "partial", stderr: "jq: not found\n", code: 127}},
	{"the stderr of a hook that succeeds is not shown", "PostToolUse", postEdit,
		hookAnswer{stderr: "debug line\n"}},
	{"stdout that is no JSON passes", "PostToolUse", postEdit,
		hookAnswer{stdout: "{ not json\n"}},
	{"an event of another form", "Notification", notification,
		hookAnswer{}},
}

// runAdapter runs the adapter file with the hook's answer and input under
// PATH path: what the hook read and what the agent gets.
func runAdapter(t *testing.T, adapter, path, event, input string, a hookAnswer) (read string, got hookAnswer) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"out": a.stdout, "err": a.stderr}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// the hook: records its stdin, prints the answer
	hook := filepath.Join(dir, "hook.sh")
	script := fmt.Sprintf("#!/bin/sh\ncat > %[1]s/read\ncat %[1]s/out\ncat %[1]s/err >&2\nexit %d\n", quoteArg(dir), a.code)
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", adapter, event, "sh "+quoteArg(hook))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		got.code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	got.stdout, got.stderr = stdout.String(), stderr.String()
	data, err := os.ReadFile(filepath.Join(dir, "read"))
	if err != nil {
		t.Fatalf("the hook did not run: %v (stderr %q)", err, got.stderr)
	}
	return string(data), got
}

// TestAdapter: a Claude Code hook run through each target's adapter reads
// Claude Code's input (event, tool and key names) and its answer reaches the
// target as the target reads it — the same under every awk there is here.
// The golden files (-update) are what each case gives.
func TestAdapter(t *testing.T) {
	variants := awks(t)
	for _, to := range slices.Sorted(func(yield func(string) bool) {
		for a := range adapters {
			if !yield(a) {
				return
			}
		}
	}) {
		t.Run(to, func(t *testing.T) {
			data, err := renderAdapter(to, false, ".x/hooks")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(adapterAwk, "'") {
				t.Fatal("adapter.awk has a single quote: the sh script holds it in single quotes")
			}
			golden(t, filepath.Join("..", "adapter", to+".sh"), data)
			if to == GeminiCLI { // the only target of these with packages
				pkg, err := renderAdapter(to, true, "hooks")
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("..", "adapter", to+".package.sh"), pkg)
			}
			adapter := filepath.Join(t.TempDir(), AdapterName)
			if err := os.WriteFile(adapter, data, 0o755); err != nil {
				t.Fatal(err)
			}
			var want []byte
			for _, name := range slices.Sorted(func(yield func(string) bool) {
				for n := range variants {
					if !yield(n) {
						return
					}
				}
			}) {
				path := pathWith(t, variants[name])
				var b bytes.Buffer
				for _, c := range adapterCases {
					input := c.input[to]
					read, got := runAdapter(t, adapter, path, c.event, input, c.hook)
					if !json.Valid([]byte(read)) {
						t.Errorf("%s, %s: the hook read no JSON: %q", name, c.name, read)
					}
					if s := strings.TrimSpace(got.stdout); strings.HasPrefix(s, "{\"") && !json.Valid([]byte(s)) {
						t.Errorf("%s, %s: the agent gets broken JSON: %q", name, c.name, s)
					}
					fmt.Fprintf(&b, "## %s (%s, the hook exits %d)\n", c.name, c.event, c.hook.code)
					fmt.Fprintf(&b, "%s sends:  %s\n", Title(to), input)
					fmt.Fprintf(&b, "the hook reads: %s", read)
					fmt.Fprintf(&b, "the hook prints: stdout %q, stderr %q\n", c.hook.stdout, c.hook.stderr)
					fmt.Fprintf(&b, "%s gets:   exit %d, stdout %q, stderr %q\n\n", Title(to), got.code, got.stdout, got.stderr)
				}
				if want == nil {
					want = b.Bytes()
					golden(t, filepath.Join("..", "adapter", to+".cases.txt"), want)
					continue
				}
				if got := strings.Split(b.String(), "\n"); !bytes.Equal(b.Bytes(), want) {
					first := strings.Split(string(want), "\n")
					for i := range min(len(got), len(first)) {
						if got[i] != first[i] {
							t.Errorf("under %s the adapter for %s gives other answers than under awk, from line %d:\n%s\nnot\n%s", name, to, i+1, got[i], first[i])
							break
						}
					}
				}
			}
		})
	}
}

// TestAdapterVariables: the hook's line runs with Claude Code's variables:
// CLAUDE_PROJECT_DIR the agent's project folder (else the folder the hook
// runs in, never one inherited from elsewhere), and in a package
// CLAUDE_PLUGIN_ROOT the package's root.
func TestAdapterVariables(t *testing.T) {
	tests := []struct {
		name, to string
		pkg      bool
		env      []string
		want     string // CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT, $ROOT the package, $CWD the folder it runs in
	}{
		{"gemini's project folder", GeminiCLI, false, []string{"GEMINI_PROJECT_DIR=/work/p", "CLAUDE_PROJECT_DIR=/elsewhere"}, "/work/p|"},
		{"qwen's project folder", QwenCode, false, []string{"QWEN_PROJECT_DIR=/work/q"}, "/work/q|"},
		{"copilot's: the repository root it runs in", CopilotCLI, false, []string{"CLAUDE_PROJECT_DIR=/elsewhere"}, "$CWD|"},
		{"a gemini extension's root", GeminiCLI, true, []string{"GEMINI_PROJECT_DIR=/work/p"}, "/work/p|$ROOT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			cwd := t.TempDir()
			data, err := renderAdapter(tc.to, tc.pkg, "hooks")
			if err != nil {
				t.Fatal(err)
			}
			adapter := filepath.Join(root, "hooks", AdapterName)
			if err := os.MkdirAll(filepath.Dir(adapter), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(adapter, data, 0o755); err != nil {
				t.Fatal(err)
			}
			// the hook prints its variables (as context where the agent
			// would not take plain stdout as one)
			cmd := exec.Command("sh", adapter, "UserPromptSubmit", `echo "$CLAUDE_PROJECT_DIR|$CLAUDE_PLUGIN_ROOT"`)
			cmd.Dir = cwd
			cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
				return strings.HasPrefix(kv, "CLAUDE_") || strings.HasPrefix(kv, "GEMINI_") || strings.HasPrefix(kv, "QWEN_")
			}), tc.env...)
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"p"}`)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			want := strings.NewReplacer("$ROOT", root, "$CWD", cwd).Replace(tc.want)
			if !strings.Contains(string(out), want+"\n") && !strings.Contains(string(out), `"additionalContext":"`+want+`"`) {
				t.Errorf("the line ran with %s, want %s", out, want)
			}
		})
	}
}

// BenchmarkAdapter: a hook input of 1 MB (an AfterTool of a large file
// read) through Gemini CLI's adapter and back, under each awk installed.
func BenchmarkAdapter(b *testing.B) {
	data, err := renderAdapter(GeminiCLI, false, ".gemini/hooks")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	adapter, hook := filepath.Join(dir, AdapterName), filepath.Join(dir, "hook.sh")
	context := `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "read"}}`
	for file, text := range map[string]string{adapter: string(data), hook: "#!/bin/sh\ncat > /dev/null\necho '" + context + "'\n"} {
		if err := os.WriteFile(file, []byte(text), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	big, _ := json.Marshal(map[string]any{"session_id": "s", "hook_event_name": "AfterTool", "tool_name": "read_file",
		"tool_input":    map[string]string{"file_path": "/p/big.txt"},
		"tool_response": map[string]string{"llmContent": strings.Repeat("a line with \"quotes\" and {braces}\n", 30000)}})
	variants := map[string][]string{}
	for _, name := range []string{"mawk", "gawk", "original-awk"} {
		if p, err := exec.LookPath(name); err == nil {
			variants[name] = []string{p}
		}
	}
	if p, err := exec.LookPath("busybox"); err == nil {
		variants["busybox"] = []string{p, "awk"}
	}
	for name, argv := range variants {
		b.Run(name, func(b *testing.B) {
			path := pathWith(b, argv)
			for b.Loop() {
				cmd := exec.Command("sh", adapter, "PostToolUse", "sh "+quoteArg(hook))
				cmd.Env = append(os.Environ(), "PATH="+path)
				cmd.Stdin = bytes.NewReader(big)
				if out, err := cmd.Output(); err != nil || !bytes.Contains(out, []byte(`"additionalContext":"read"`)) {
					b.Fatalf("%v %s", err, out)
				}
			}
		})
	}
}
