package prochook

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hostmode"
)

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
}

// The example skill, unchanged, end to end: the plugin tool is offered
// (as seed 003 describes; PicoClaw's code reverts it and says so), called
// and answered by respond; read_file's arguments are rewritten; the
// destructive command is denied; notifications and stderr are kept.
func TestExamplePluginTools(t *testing.T) {
	needPython(t)
	for _, mode := range []hostmode.Mode{hostmode.Code, hostmode.Document} {
		t.Run(string(mode), func(t *testing.T) { examplePluginTools(t, mode) })
	}
}

func examplePluginTools(t *testing.T, mode hostmode.Mode) {
	const skillsRoot = "../../../skills"
	before := runtime.NumGoroutine()
	h, ds, err := Load(context.Background(), skillsRoot, []string{"plugin-tools"}, Options{Grace: time.Second, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		t.Errorf("diagnostic %+v", d)
	}
	sc, sds, err := scenario.LoadFile(skillsRoot, "plugin-tools/scenarios/plugin-tools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range sds {
		if d.Severity == "error" || d.Code != scenario.CodeUnknownTool {
			t.Errorf("scenario diagnostic %+v: only the plugin tool's warning is expected", d)
		}
	}
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}})
	h.Close()
	if err != nil {
		t.Fatal(err)
	}
	noLeak(t, before)
	for _, c := range calls(tr, "") {
		if c.Outcome == engine.OutcomeError || c.Outcome == engine.OutcomeTimeout {
			t.Errorf("%s %s failed: %s", c.Hook, c.Event, c.Error)
		}
	}
	offered := slices.Contains(tr.Calls[1].AddedTools, "lookup_docs")
	if offered != (mode == hostmode.Document) || len(tr.Calls[0].AddedTools) != 0 {
		t.Errorf("added tools: planning %q, round 0 %q", tr.Calls[0].AddedTools, tr.Calls[1].AddedTools)
	}
	// Either way the offer's call says what the other behaviour does.
	noted := slices.ContainsFunc(calls(tr, "hook.before_llm"), func(c engine.HookCall) bool { return strings.Contains(c.Other, "lookup_docs") })
	if !noted {
		t.Errorf("no before_llm call notes what the other behaviour does with lookup_docs")
	}
	docs := tool(tr, "lookup_docs")
	if docs.Status != engine.ToolResponded || !strings.HasPrefix(docs.Result, "[docs v2.3] Build:") {
		t.Errorf("lookup_docs %+v", docs)
	}
	rf := tool(tr, "read_file")
	if rf.Arguments["limit"] != float64(200) || rf.OriginalArguments["limit"] != nil {
		t.Errorf("read_file %+v", rf)
	}
	var denied, cleaned bool
	for _, c := range tr.Calls {
		for _, tc := range c.ToolCalls {
			if tc.Name == "run_command" && strings.Contains(tc.Arguments["command"].(string), "rm -rf /") {
				denied = tc.Status == engine.ToolDenied && strings.Contains(tc.Result, "destructive")
			}
			if tc.Name == "run_command" && tc.Arguments["command"] == "make clean" {
				cleaned = tc.Status == engine.ToolApproved
			}
		}
	}
	if !denied || !cleaned {
		t.Errorf("denied rm -rf: %v, approved make clean: %v", denied, cleaned)
	}
	var stderr strings.Builder
	for _, c := range calls(tr, "") {
		stderr.WriteString(c.Stderr)
	}
	for _, s := range []string{"offering lookup_docs", "answering lookup_docs", "limiting read_file", "denying", "event agent.turn.start"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
		}
	}
	if n := len(calls(tr, "hook.runtime_event")); n < 5 {
		t.Errorf("%d notifications", n)
	}
}

// A Python hook that modifies after_tool, and one that dies with a
// traceback: the crash is shown with its stderr and the run goes on.
func TestPythonHook(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("testdata/pyhook.py")
	if err != nil {
		t.Fatal(err)
	}
	h := Hook{Name: "py", File: "x/hooks/picoclaw.json", Enabled: true, OK: true, Command: []string{"python3", script}, Dir: t.TempDir(),
		Intercept: []string{"before_tool", "after_tool"}, Defaults: Defaults{Observer: time.Second, Interceptor: 5 * time.Second, Approval: 5 * time.Second}}
	tr, err := simulate(t, toolScenario(t, "echo", "boom", "echo"), h)
	if err != nil {
		t.Fatal(err)
	}
	if tc := tool(tr, "echo"); tc.Result != "OK:ECHO" {
		t.Errorf("echo %+v", tc)
	}
	exit := calls(tr, "process.exit")
	if len(exit) < 1 || exit[0].ExitCode == nil || *exit[0].ExitCode == 0 {
		t.Fatalf("exits %+v", exit)
	}
	var stderr string
	for _, c := range calls(tr, "") {
		stderr += c.Stderr
	}
	if !strings.Contains(stderr, "RuntimeError: boom is not allowed here") {
		t.Errorf("traceback lost: %q", stderr)
	}
	if len(calls(tr, "process.start")) != 2 {
		t.Errorf("timeline %q: want a restart after the crash", events(tr))
	}
}
