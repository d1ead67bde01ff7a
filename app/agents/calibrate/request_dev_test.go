package calibrate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// devRan is a reqRan as a file holds it: a developer's loop derives
// again from the runs it saved without running the CLI again.
type devRan struct {
	Name, Rel, Prompt  string
	Files              map[string]string
	Context            []string
	Git, Dirty         bool
	Calls              []capture.Call
	Values             request.Values
	Wrote, Transcripts map[string][]byte
	Tree               []string
	Skills             []request.Entry
}

// TestDevRequest calibrates HS_DEV_AGENT's request model from HS_DEV_CLI
// and saves the runs in HS_DEV_RUNS; with HS_DEV_REPLAY=1 it derives again
// from the saved runs (a developer's loop).
func TestDevRequest(t *testing.T) {
	cli, agent, file := os.Getenv("HS_DEV_CLI"), os.Getenv("HS_DEV_AGENT"), os.Getenv("HS_DEV_RUNS")
	if cli == "" || agent == "" || file == "" {
		t.Skip("HS_DEV_CLI, HS_DEV_AGENT, HS_DEV_RUNS")
	}
	ctx := context.Background()
	spec := reqAgents()[agent]
	rc, err := recipe.Find(spec.recipe)
	if err != nil {
		t.Fatal(err)
	}
	version, err := cliVersion(ctx, cli)
	if err != nil {
		t.Fatal(err)
	}
	var ran []*reqRan
	if os.Getenv("HS_DEV_REPLAY") != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var saved []devRan
		if err := json.Unmarshal(data, &saved); err != nil {
			t.Fatal(err)
		}
		for _, d := range saved {
			ran = append(ran, &reqRan{run: reqRun{name: d.Name, rel: d.Rel, prompt: d.Prompt, files: d.Files, context: d.Context, git: d.Git, dirty: d.Dirty, skills: d.Skills},
				calls: d.Calls, values: d.Values, wrote: d.Wrote, transcripts: d.Transcripts, tree: d.Tree})
		}
	} else {
		opts := Options{Agent: agent, CLI: cli, RunTimeout: 3 * time.Minute}
		var saved []devRan
		for _, r := range spec.runs(nonce()) {
			got, err := runForRequest(ctx, opts, spec, rc, r, func(int, string) {})
			if err != nil {
				t.Fatal(err)
			}
			ran = append(ran, got)
			saved = append(saved, devRan{Name: r.name, Rel: r.rel, Prompt: r.prompt, Files: r.files, Context: r.context, Git: r.git, Dirty: r.dirty,
				Calls: got.calls, Values: got.values, Wrote: got.wrote, Transcripts: got.transcripts, Tree: got.tree, Skills: r.skills})
		}
		data, _ := json.Marshal(saved)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := deriveRequest(spec, rc, version, ran)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(file), "model-"+agent+".json"), request.Encode(m), 0o644)
}
