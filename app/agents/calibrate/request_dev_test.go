package calibrate

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

func TestDevRequestClaude(t *testing.T) {
	cli := os.Getenv("HS_DEV_CLI")
	if cli == "" {
		t.Skip("HS_DEV_CLI")
	}
	m, err := Request(context.Background(), Options{Agent: "claude-code", CLI: cli, Progress: func(p Progress) { t.Logf("%+v", p) }})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(os.Getenv("HS_DEV_OUT"), request.Encode(m), 0o644)
}

// savedRun is a run kept for TestDevRequestSaved: derive again without
// running the CLI.
type savedRun struct {
	Name, Rel, Prompt, Stop string
	Git                     bool
	Skills                  []request.Entry
	Calls                   []capture.Call
	Values                  request.Values
	Wrote                   map[string][]byte
	Folder                  request.Node
	Contexts                map[string]string
}

type savedRuns struct {
	Agent, Version string
	Runs           []savedRun
}

// TestDevRequestRun: HS_DEV_AGENT's runs against HS_DEV_CLI, kept in
// HS_DEV_RUNS, then derived.
func TestDevRequestRun(t *testing.T) {
	cli, agent, file := os.Getenv("HS_DEV_CLI"), os.Getenv("HS_DEV_AGENT"), os.Getenv("HS_DEV_RUNS")
	if cli == "" || agent == "" || file == "" {
		t.Skip("HS_DEV_CLI, HS_DEV_AGENT, HS_DEV_RUNS")
	}
	opts := Options{Agent: agent, CLI: cli, Progress: func(p Progress) { t.Logf("%+v", p) }}
	_, _, version, ran, err := runRequest(context.Background(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	sr := savedRuns{Agent: agent, Version: version}
	for _, r := range ran {
		sr.Runs = append(sr.Runs, savedRun{Name: r.run.name, Rel: r.run.rel, Prompt: r.run.prompt, Stop: r.run.stop, Git: r.run.git, Skills: r.run.skills,
			Calls: r.calls, Values: r.values, Wrote: r.wrote, Folder: r.folder, Contexts: r.contexts})
	}
	data, _ := json.Marshal(sr)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	devDerive(t, sr)
}

// TestDevRequestSaved derives the runs kept in HS_DEV_RUNS again.
func TestDevRequestSaved(t *testing.T) {
	file := os.Getenv("HS_DEV_RUNS")
	if file == "" || os.Getenv("HS_DEV_CLI") != "" {
		t.Skip("HS_DEV_RUNS")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sr savedRuns
	if err := json.Unmarshal(data, &sr); err != nil {
		t.Fatal(err)
	}
	devDerive(t, sr)
}

func devDerive(t *testing.T, sr savedRuns) {
	spec := reqAgents()[sr.Agent]
	rc, err := recipe.Find(spec.recipe)
	if err != nil {
		t.Fatal(err)
	}
	var ran []*reqRan
	for _, s := range sr.Runs {
		ran = append(ran, &reqRan{run: reqRun{name: s.Name, rel: s.Rel, prompt: s.Prompt, stop: s.Stop, git: s.Git, skills: s.Skills},
			calls: s.Calls, values: s.Values, wrote: s.Wrote, folder: s.Folder, contexts: s.Contexts})
	}
	m, err := deriveRequest(spec, rc, sr.Version, ran)
	if m != nil {
		os.WriteFile("/tmp/reqmodel-"+sr.Agent+".json", request.Encode(m), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
