package prochook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
)

// root makes a skills root with files; it returns its path.
func root(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type want struct {
	code    string
	sev     diag.Severity
	at      string // the diagnostic points at the first occurrence of this text
	mention string // a word the message must carry (a suggestion)
}

func TestConfigDiagnostics(t *testing.T) {
	cases := []struct {
		name string
		json string
		want []want
		ok   int // hooks that would run
	}{
		{"valid", `{"hooks": {"enabled": true, "defaults": {"observer_timeout_ms": 100},
  "processes": {"a": {"enabled": true, "priority": 2, "transport": "stdio", "command": ["python3", "hook.py"], "observe": ["turn_end", "agent.tool.exec_start"], "intercept": ["before_tool", "approve_tool"]}}}}`, nil, 1},
		{"syntax", `{"hooks": {"enabled": true,}}`, []want{{code: CodeSyntax, sev: diag.Error, at: ",}"}}, 0},
		{"unknown fields", `{"hooks": {"enabld": true, "processes": {"a": {"enabled": true, "comand": ["x"], "command": ["python3", "hook.py"], "intercept": ["before_tool"]}}}}`,
			// hooks.enabled is absent: PicoClaw's code runs the hook (New
			// drops it under seed 003's behaviour: TestEnabledDefault).
			[]want{{code: CodeEnabledDefault, sev: diag.Warning, at: `{"enabld"`}, {code: CodeUnknownField, sev: diag.Warning, at: `"enabld"`, mention: `"enabled"`},
				{code: CodeUnknownField, sev: diag.Warning, at: `"comand"`, mention: `"command"`}}, 1},
		{"wrong types", `{"hooks": {"enabled": "yes", "processes": {"a": {"enabled": true, "priority": 1.5, "command": "python3 hook.py", "intercept": "before_tool"}}}}`,
			[]want{{code: CodeDisabled, sev: diag.Warning, at: `"yes"`}, {code: CodeType, sev: diag.Error, at: `"yes"`},
				{code: CodeNotInteger, sev: diag.Error, at: "1.5"}, {code: CodeType, sev: diag.Error, at: `"python3 hook.py"`},
				{code: CodeType, sev: diag.Error, at: `"before_tool"`}}, 0},
		{"unknown intercept and observe", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": ["python3", "hook.py"], "intercept": ["before_tools"], "observe": ["agent.tool.exec_strat"]}}}}`,
			[]want{{code: CodeUnknownIntercept, sev: diag.Error, at: `"before_tools"`, mention: `"before_tool"`}, {code: CodeUnknownObserve, sev: diag.Error, at: `"agent.tool.exec_strat"`, mention: `"agent.tool.exec_start"`}}, 0},
		{"transport", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "transport": "grpc", "command": ["python3", "hook.py"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeTransport, sev: diag.Error, at: `"grpc"`}}, 0},
		{"empty command", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": [], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeEmptyCommand, sev: diag.Error, at: "[]"}}, 0},
		{"dir escapes", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "dir": "../../..", "command": ["python3", "hook.py"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeEscapingDir, sev: diag.Error, at: `"../../.."`}}, 0},
		{"missing executable", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": ["no-such-program-xyz"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeMissingExec, sev: diag.Error, at: `"no-such`}}, 0},
		{"missing script", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": ["python3", "nope.py"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeMissingScript, sev: diag.Error, at: `"nope.py"`}}, 0},
		{"script without exec bit", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": ["./hook.py"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeNotExecutable, sev: diag.Error, at: `"./hook.py"`}}, 0},
		{"no modes", `{"hooks": {"enabled": true, "processes": {"a": {"enabled": true, "command": ["python3", "hook.py"]}}}}`,
			[]want{{code: CodeNoModes, sev: diag.Error, at: `{"enabled": true, "command"`}}, 0},
		{"process not enabled", `{"hooks": {"enabled": true, "processes": {"a": {"command": ["python3", "hook.py"], "intercept": ["before_tool"]}}}}`,
			[]want{{code: CodeDisabled, sev: diag.Warning, at: `"a"`}}, 0},
		{"negative timeout", `{"hooks": {"enabled": true, "defaults": {"approval_timeout_ms": -1}, "processes": {}}}`,
			[]want{{code: CodeNegativeTimeout, sev: diag.Error, at: "-1"}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := root(t, map[string]string{"s/hooks/picoclaw.json": c.json, "s/hooks/hook.py": "print()\n"})
			hooks, ds, err := Validate(context.Background(), dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != len(c.want) {
				t.Fatalf("diagnostics %+v\nwant %+v", ds, c.want)
			}
			for i, w := range c.want {
				d := ds[i]
				col := strings.Index(c.json, w.at) + 1 // every case is one line
				if d.Code != w.code || d.Severity != w.sev || d.Line != 1 || d.Column != col || d.File != "s/hooks/picoclaw.json" {
					t.Errorf("diagnostic %d = %+v, want %+v", i, d, w)
				}
				if w.mention != "" && !strings.Contains(d.Message, w.mention) {
					t.Errorf("diagnostic %d %q does not suggest %s", i, d.Message, w.mention)
				}
			}
			if len(hooks) != c.ok {
				t.Errorf("%d hooks would run, want %d", len(hooks), c.ok)
			}
		})
	}
}

func TestConfigValues(t *testing.T) {
	dir := root(t, map[string]string{
		"s/hooks/picoclaw.json": `{"hooks": {"enabled": true, "defaults": {"interceptor_timeout_ms": 250},
 "processes": {
  "b": {"enabled": true, "priority": 1, "command": ["python3", "hook.py"], "dir": "sub", "env": {"X": "1"}, "observe": ["*"], "intercept": ["before_llm"]},
  "a": {"enabled": true, "priority": 1, "command": ["python3", "sub/hook.py"], "intercept": ["approve_tool", "after_tool"]},
  "z": {"enabled": true, "priority": -3, "command": ["python3", "sub/hook.py"], "observe": ["tool_exec_end"]}}}}`,
		"s/hooks/sub/hook.py":         "",
		"sub/hook.py":                 "", // b's dir under PicoClaw's code: relative to the root
		".picoclaw/hooks.json":        `{"hooks": {"enabled": true, "processes": {"root": {"enabled": true, "command": ["sh"], "intercept": ["before_tool"]}}}}`,
		".hidden/hooks/picoclaw.json": `not even json`,
	})
	c, err := Read(context.Background(), dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) != 0 {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
	h := New(c.Hooks, Options{})
	var order []string
	for _, hk := range h.hooks {
		order = append(order, hk.Name)
	}
	if !slices.Equal(order, []string{"z", "root", "a", "b"}) {
		t.Errorf("order %q", order)
	}
	b := h.hooks[3]
	if b.Dir != filepath.Join(dir, "sub") || b.Env["X"] != "1" || !b.ObserveAll || b.Defaults.Interceptor != 250*time.Millisecond ||
		b.Defaults.Approval != DefaultApprovalTimeout || b.Skill != "s" || b.Line != 3 {
		t.Errorf("hook b %+v", b)
	}
	if z := h.hooks[0]; !slices.Equal(z.Observe, []string{"agent.tool.exec_end"}) || !slices.Equal(z.Modes(), []string{"observe"}) {
		t.Errorf("hook z %+v", z)
	}
	if a := h.hooks[2]; !slices.Equal(a.Modes(), []string{"tool", "approve"}) {
		t.Errorf("modes of a %q", a.Modes())
	}
	if root := h.hooks[1]; root.Skill != "" || root.File != ".picoclaw/hooks.json" {
		t.Errorf("root hook %+v", root)
	}
	if len(h.Commands()) != 4 || !strings.Contains(h.Commands()[3], "python3 hook.py") {
		t.Errorf("commands %q", h.Commands())
	}
	// A draft replaces the file on disk.
	c2, _ := Read(context.Background(), dir, nil, map[string][]byte{"s/hooks/picoclaw.json": []byte(`{"hooks": {"enabled": false}}`)})
	if len(c2.Hooks) != 1 || c2.Fingerprint == c.Fingerprint {
		t.Errorf("with a draft: %d hooks, fingerprint changed %v", len(c2.Hooks), c2.Fingerprint != c.Fingerprint)
	}
}

// The schema ships to editors; the validator runs in the app and CLI:
// this fails as soon as one knows a field or value the other does not.
func TestSchemaMatchesValidator(t *testing.T) {
	data, err := os.ReadFile("../../../schema/picoclaw-hooks.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	type object struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	var s struct {
		Schema string `json:"$schema"`
		object
		Defs map[string]object `json:"$defs"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema %q, validator %q", what, got, want)
		}
	}
	check("top level", keys(s.Properties), sorted(TopFields))
	check("hooks", keys(s.Defs["hooks"].Properties), sorted(HooksFields))
	check("defaults", keys(s.Defs["defaults"].Properties), sorted(DefaultsFields))
	check("process", keys(s.Defs["process"].Properties), sorted(ProcessFields))
	check("process required", s.Defs["process"].Required, []string{"command"})
	var arr struct {
		Items struct {
			Enum []string `json:"enum"`
		} `json:"items"`
	}
	if err := json.Unmarshal(s.Defs["process"].Properties["intercept"], &arr); err != nil {
		t.Fatal(err)
	}
	check("intercept enum", arr.Items.Enum, Intercepts)
	arr.Items.Enum = nil
	if err := json.Unmarshal(s.Defs["process"].Properties["observe"], &arr); err != nil {
		t.Fatal(err)
	}
	check("observe enum", sorted(arr.Items.Enum), ObserveNames())
	var tr struct {
		Enum []string `json:"enum"`
	}
	json.Unmarshal(s.Defs["process"].Properties["transport"], &tr)
	check("transport", tr.Enum, []string{"stdio"})
}

func TestReachable(t *testing.T) {
	hooks := []Hook{{Name: "root"}, {Name: "a", Skill: "a"}, {Name: "b", Skill: "b"}}
	names := func(hs []Hook) (out []string) {
		for _, h := range hs {
			out = append(out, h.Name)
		}
		return out
	}
	sc := &scenario.Scenario{EnabledSkills: []string{"a"}, Requests: []scenario.Request{{}, {EnabledSkills: []string{}}}}
	if got := names(Reachable(hooks, sc)); !slices.Equal(got, []string{"root", "a"}) {
		t.Errorf("reachable %q", got)
	}
	sc.Requests[1].EnabledSkills = []string{"b"}
	if got := names(Reachable(hooks, sc)); !slices.Equal(got, []string{"root", "a", "b"}) {
		t.Errorf("reachable %q", got)
	}
	sc = &scenario.Scenario{Requests: []scenario.Request{{}}} // nil: every skill
	if got := names(Reachable(hooks, sc)); len(got) != 3 {
		t.Errorf("reachable %q", got)
	}
}

// The row "dir": PicoClaw's code resolves a relative dir against its own
// working directory (the skills root, where its user runs it), seed 003's
// reading against the config's folder. What breaks under the folder's
// behaviour is an error, what breaks only under the other a warning (and
// that behaviour's start fails with why); each start says where the other
// behaviour would start the process, when that is another folder.
func TestDirByBehaviour(t *testing.T) {
	cmd, _ := json.Marshal([]string{goHook, "{}"})
	config := func(dir string) string {
		d := ""
		if dir != "" {
			d = fmt.Sprintf(`"dir": %q, `, dir)
		}
		return fmt.Sprintf(`{"hooks": {"enabled": true, "processes": {"h": {"enabled": true, %s"command": %s, "intercept": ["before_tool"]}}}}`, d, cmd)
	}
	abs := "" // filled with an absolute folder inside the root
	cases := []struct {
		name       string
		folder     hostmode.Mode // the folder's setting
		file, dir  string
		mk         []string      // folders to create, relative to the root
		link       string        // a link root/link → outside the root
		errCode    string        // an error: the hook does not run
		warnCode   string        // a warning about the other behaviour
		code, doc  string        // where each behaviour starts it, relative to the root
		fails      hostmode.Mode // the behaviour under which it cannot start ("" none)
		noteInCode string        // in the Other note of the start under code ("" none)
		noteInDoc  string
	}{
		{name: "both exist", folder: hostmode.Code, file: "s/hooks/picoclaw.json", dir: "sub", mk: []string{"sub", "s/hooks/sub"},
			code: "sub", doc: "s/hooks/sub", noteInCode: "the process would start in s/hooks/sub", noteInDoc: "against its working directory (the skills root): the process would start in sub"},
		{name: "only the root's", folder: hostmode.Code, file: "s/hooks/picoclaw.json", dir: "sub", mk: []string{"sub"},
			warnCode: CodeMissingDir, code: "sub", doc: "s/hooks/sub", fails: hostmode.Document,
			noteInCode: "s/hooks/sub, where it could not start", noteInDoc: "the process would start in sub"},
		{name: "only the config's, folder code", folder: hostmode.Code, file: "s/hooks/picoclaw.json", dir: "sub", mk: []string{"s/hooks/sub"},
			errCode: CodeMissingDir},
		{name: "only the config's, folder document", folder: hostmode.Document, file: "s/hooks/picoclaw.json", dir: "sub", mk: []string{"s/hooks/sub"},
			warnCode: CodeMissingDir, code: "sub", doc: "s/hooks/sub", fails: hostmode.Code,
			noteInCode: "the process would start in s/hooks/sub", noteInDoc: "would start in sub, where it could not start"},
		{name: "leaves the root under code only", folder: hostmode.Code, file: "s/hooks/picoclaw.json", dir: "../..",
			errCode: CodeEscapingDir},
		{name: "a link out of the root", folder: hostmode.Document, file: ".picoclaw/hooks.json", dir: "../out", link: "out",
			errCode: CodeEscapingDir},
		{name: "the same folder: no note", folder: hostmode.Code, file: "s/hooks/picoclaw.json", dir: "ABS", mk: []string{"a"},
			code: "a", doc: "a"},
		{name: "no dir: the config's folder under both", folder: hostmode.Code, file: "s/hooks/picoclaw.json",
			code: "s/hooks", doc: "s/hooks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for _, d := range append(c.mk, filepath.Dir(c.file)) {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if c.link != "" {
				if err := os.Symlink(t.TempDir(), filepath.Join(root, c.link)); err != nil {
					t.Fatal(err)
				}
			}
			if c.folder == hostmode.Document {
				os.MkdirAll(filepath.Join(root, ".hookstudio"), 0o755)
				os.WriteFile(filepath.Join(root, hostmode.File), []byte("host_behaviour: document\n"), 0o644)
			}
			dir := c.dir
			if dir == "ABS" {
				abs = filepath.Join(root, "a")
				dir = abs
			}
			text := config(dir)
			if err := os.WriteFile(filepath.Join(root, c.file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := Read(context.Background(), root, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, d := range cfg.Diagnostics {
				codes = append(codes, string(d.Severity)+":"+d.Code)
				if d.Line != 1 || d.Column != strings.Index(text, `"dir"`)+len(`"dir": `)+1 {
					t.Errorf("diagnostic %+v does not point at the dir", d)
				}
			}
			var want []string
			if c.errCode != "" {
				want = append(want, "error:"+c.errCode)
			}
			if c.warnCode != "" {
				want = append(want, "warning:"+c.warnCode)
			}
			if !slices.Equal(codes, want) {
				t.Fatalf("diagnostics %+v, want %q", cfg.Diagnostics, want)
			}
			if c.errCode != "" {
				if len(cfg.Hooks) != 0 {
					t.Errorf("a hook with an error would run: %+v", cfg.Hooks)
				}
				return
			}
			for _, m := range []struct {
				mode       hostmode.Mode
				where, got string
			}{{hostmode.Code, c.code, c.noteInCode}, {hostmode.Document, c.doc, c.noteInDoc}} {
				tr, err := simulateIn(t, m.mode, toolScenario(t, "bash"), cfg.Hooks...)
				starts := calls(tr, "process.start")
				if len(starts) != 1 {
					t.Fatalf("%s: starts %+v (%v)", m.mode, starts, err)
				}
				st := starts[0]
				var in struct{ Dir string }
				json.Unmarshal(st.Input, &in)
				if in.Dir != filepath.Join(root, filepath.FromSlash(m.where)) {
					t.Errorf("%s: started in %q", m.mode, in.Dir)
				}
				fails := m.mode == c.fails
				if failed := st.Outcome == engine.OutcomeError; failed != fails || fails && !strings.Contains(st.Error, "is not a folder") {
					t.Errorf("%s: start %s %q, want it to fail: %v", m.mode, st.Outcome, st.Error, fails)
				}
				// A start that fails ends the run under PicoClaw's code.
				if fails && (m.mode == hostmode.Code) != errors.Is(err, ErrStartFailed) || !fails && err != nil {
					t.Errorf("%s: run error %v", m.mode, err)
				}
				if m.got == "" && strings.Contains(st.Other, "dir") || m.got != "" && !strings.Contains(st.Other, m.got) {
					t.Errorf("%s: note %q, want %q", m.mode, st.Other, m.got)
				}
			}
		})
	}
}
