package hookrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// TestStdin: the keys of an event in the order the table gives them, a
// key under another source's value, a constant, a value computed only for
// the events that ask for it, a key an event leaves out, nested objects.
func TestStdin(t *testing.T) {
	asked := 0
	table := Stdin{
		"Start": {"session_id", "source:=startup", "count"},
		"Tool":  {"session_id", "tool_call_id=tool_use_id", "tool_use_id", "result", "submitted", "missing"},
	}
	inner := &Fields{}
	inner.Add("y", "b")
	nested := &Fields{}
	nested.Add("z", 1)
	nested.Add("a", nil)
	nested.Set("a", []any{inner}) // where it stood, not at the end
	v := Values{"session_id": "s", "count": 2, "tool_use_id": "t1",
		"result":    func() any { asked++; return nested },
		"submitted": func() any { return Omit{} }}
	if got, want := string(table.Build("Start", v).JSON()), `{"session_id":"s","source":"startup","count":2}`; got != want {
		t.Errorf("Start: %s, want %s", got, want)
	}
	if asked != 0 {
		t.Error("a value no key of the event asks for was computed")
	}
	want := `{"session_id":"s","tool_call_id":"t1","tool_use_id":"t1","result":{"z":1,"a":[{"y":"b"}]},"missing":null}`
	if got := string(table.Build("Tool", v).JSON()); got != want {
		t.Errorf("Tool: %s, want %s", got, want)
	}
	if got := string(table.Build("Other", v).JSON()); got != "{}" {
		t.Errorf("an event without keys: %s", got)
	}
}

func TestWriteJSONL(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a", "b.jsonl")
	if err := WriteJSONL(file, []any{map[string]int{"x": 1}, "y"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil || string(data) != "{\"x\":1}\n\"y\"\n" {
		t.Errorf("%q %v", data, err)
	}
	if err := WriteJSONL(file, []any{func() {}}); err == nil {
		t.Error("a value JSON cannot hold was written")
	}
}

// TestRun: a hook started with its stdin and recorded; a hook past its
// timeout killed; Close removes the run's folder. (Apply is every hook
// system's tests' own.)
func TestRun(t *testing.T) {
	r, err := NewRun("test", "test hooks", UUID())
	if err != nil {
		t.Fatal(err)
	}
	res := r.Exec(context.Background(), time.Minute, []string{"sh", "-c", "cat; echo err >&2; exit 3"}, t.TempDir(), nil, []byte("in"))
	if string(res.Stdout) != "in" || res.ExitCode != 3 {
		t.Errorf("stdout %q, exit %d", res.Stdout, res.ExitCode)
	}
	call := r.Call("Ev", "h", "f:1", []byte("in"), res)
	if call.System != "test" || *call.ExitCode != 3 || call.Stderr != "err\n" || call.Outcome != engine.OutcomeOK {
		t.Errorf("call %+v", call)
	}
	if res := r.Exec(context.Background(), 50*time.Millisecond, []string{"sh", "-c", "sleep 30"}, "", nil, nil); !res.TimedOut {
		t.Error("a hook past its timeout was not killed")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(r.Dir); !os.IsNotExist(err) {
		t.Errorf("the run's folder is still there: %v", err)
	}
	if id := UUID7(); id[14] != '7' || !strings.ContainsAny(id[19:20], "89ab") {
		t.Errorf("UUID7 %s is not shaped as a version 7 id", id)
	}
}
