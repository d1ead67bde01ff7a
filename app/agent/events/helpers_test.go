package events

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/hooks/skills"
)

// fixedClock ticks one millisecond per reading from a fixed instant, so
// golden timestamps are stable.
func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

func counter(t *testing.T) *tokens.Counter {
	t.Helper()
	c, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const skillsRoot = "../../../skills"

// exampleScenario loads a scenario of the example skills with its skills.
func exampleScenario(t *testing.T, rel string) (*scenario.Scenario, *skills.Set) {
	t.Helper()
	set, err := skills.Load(context.Background(), skillsRoot)
	if err != nil {
		t.Fatal(err)
	}
	// its {{cwd}} as a run writes it, one folder on every machine (the
	// goldens pin the events, not where the example sits)
	return parseScenario(t, rel, filepath.Join(skillsRoot, rel)).Expand(scenario.Values{Cwd: "/project"}), set
}

func parseScenario(t *testing.T, name, path string) *scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseText(t, name, string(data))
}

func parseText(t *testing.T, name, text string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse(name, []byte(text))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatalf("scenario %s: %v", name, d)
		}
	}
	return sc
}

// noHooks is a HookSource without skill hooks.
type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// run plays sc on the mock with a monitor configured by o (Stream, Now
// and Tokens filled in when empty) and extra handlers before it.
func run(t *testing.T, ctx context.Context, sc *scenario.Scenario, src engine.HookSource, o Options, before ...engine.Handler) (*engine.Trace, *Stream, error) {
	t.Helper()
	if o.Now == nil {
		o.Now = fixedClock()
	}
	if o.Stream == nil {
		o.Stream = NewStream(StreamOptions{Now: o.Now})
	}
	if o.Tokens == nil {
		o.Tokens = counter(t)
	}
	if src == nil {
		src = noHooks{}
	}
	cfg := engine.Config{Model: llm.NewMock(sc), Handlers: before}
	m := Attach(&cfg, o)
	tr, err := engine.Run(ctx, sc, src, cfg)
	m.Finish(tr, err)
	o.Stream.Close()
	return tr, o.Stream, err
}

func mockOf(sc *scenario.Scenario) engine.Model { return llm.NewMock(sc) }
