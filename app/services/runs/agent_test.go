package runs

import (
	"slices"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/registry"
)

// agentHooks are an agent's hooks: attached, they name the agent version
// the run renders for, as a hook system of an agent CLI does.
type agentHooks struct {
	fakeHooks
	agent, version string
}

func (a *agentHooks) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	cfg.Agent = &engine.Agent{Agent: a.agent, Version: a.version}
	cfg.AgentEntries = []request.Entry{{Name: "tidy", Description: "Tidy up.", Kind: request.EntryProject, Dir: "/p/.claude/skills/tidy", Body: "Tidy.\n"}}
	return a.fakeHooks.Attach(cfg, run)
}

// TestAgentRequest: a run that reaches an agent's hooks gets that agent
// version's request model (the bundled shape here), its slots' values from
// the folder, and the diagnostics of the scenario's tools against the
// agent's; a version nothing is known of gets the bare loop.
func TestAgentRequest(t *testing.T) {
	sc := parse(t, "name: x\nagent: claude-code@2.1.332\ntools: [{name: Bash}]\nrequests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: Bash, arguments: {command: ls}}]\n      - tool_calls: [{name: Reed, arguments: {file_path: x}}]\n      - content: done\n")
	cat := request.NewCatalog(t.TempDir()) // nothing calibrated: the bundled shapes
	r, err := Assemble(Spec{Scenario: sc, Hooks: &agentHooks{agent: "claude-code", version: "2.1.332"}, Trusted: true,
		Requests: cat, Dir: t.TempDir(), Home: "/home/someone"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.cfg.Request == nil || r.cfg.Request.Origin != request.Bundled || r.cfg.Agent.Request != string(request.Bundled) {
		t.Fatalf("request model %+v, agent %+v", r.cfg.Request, r.cfg.Agent)
	}
	if r.cfg.Facts[request.SlotHome] != "/home/someone" || r.cfg.Facts[request.SlotIsGit] != "false" || r.cfg.Facts[request.SlotSkillDir+":tidy"] != "/p/.claude/skills/tidy" {
		t.Errorf("facts %v", r.cfg.Facts)
	}
	ds := r.Diagnostics()
	if len(ds) != 1 || ds[0].Code != scenario.CodeAgentTool || !slices.Contains(r.cfg.Request.ToolNames(), "Read") {
		t.Errorf("a call of Reed, which Claude Code does not have: %v", ds)
	}

	r2, err := Assemble(Spec{Scenario: sc, Hooks: &agentHooks{agent: "claude-code", version: "9.9.9"}, Trusted: true, Requests: cat, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if r2.cfg.Request == nil || r2.cfg.Agent.Request != request.OriginNone || r2.cfg.Request.Loop.Planning {
		t.Errorf("an unknown version: the bare agent loop, said so: %+v %+v", r2.cfg.Request, r2.cfg.Agent)
	}
}
