package llm

import (
	"context"
	"fmt"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// ToolResultSpec is the proposed scenario extension for tool results
// during a real run, one per declared tool (it would sit on scenario.Tool
// as `result:` and `results:`):
//
//	tools:
//	  - name: read_file
//	    parameters: {...}
//	    result: "package main ..."          # any call without a table match
//	    results:                            # matched on canonical arguments first
//	      - {arguments: {path: main.go}, result: "package main ..."}
//	      - {arguments: {path: go.mod},  result: "module demo"}
//
// Until app/agent/scenario carries it, callers build ToolResults from these.
type ToolResultSpec struct {
	Name    string      `json:"name"`
	Result  *string     `json:"result,omitempty"`
	Results []ArgResult `json:"results,omitempty"`
}

// ArgResult is the result of a call with exactly these arguments.
type ArgResult struct {
	Arguments map[string]any `json:"arguments"`
	Result    string         `json:"result"`
}

// ToolResults answers tool calls from the scenario: a table keyed by tool
// name and canonical JSON arguments first, then a fixed result per tool.
type ToolResults struct {
	Fixed  map[string]string            // tool name → result
	ByArgs map[string]map[string]string // tool name → CanonicalJSON(arguments) → result
}

// NewToolResults builds the lookup from specs.
func NewToolResults(specs []ToolResultSpec) ToolResults {
	tr := ToolResults{Fixed: map[string]string{}, ByArgs: map[string]map[string]string{}}
	for _, s := range specs {
		if s.Result != nil {
			tr.Fixed[s.Name] = *s.Result
		}
		for _, r := range s.Results {
			tr.set(s.Name, r.Arguments, r.Result)
		}
	}
	return tr
}

// ScriptedToolResults gathers a scenario's tool results for a real run.
// The tools' own result and results come first; then the results scripted
// in the rounds fill what they leave open: every (tool, arguments) pair
// goes into the table (the first scripted result wins), and the first
// result scripted for a tool is its fixed result, used when a real model
// calls it with other arguments.
func ScriptedToolResults(sc *scenario.Scenario) ToolResults {
	tr := ToolResults{Fixed: map[string]string{}, ByArgs: map[string]map[string]string{}}
	for _, t := range sc.Tools {
		if t.Result != nil {
			tr.Fixed[t.Name] = *t.Result
		}
		for _, r := range t.Results {
			if _, ok := tr.ByArgs[t.Name][CanonicalJSON(r.Arguments)]; !ok {
				tr.set(t.Name, r.Arguments, r.Result)
			}
		}
	}
	for _, req := range sc.Requests {
		for _, rd := range req.Rounds {
			for _, tc := range rd.ToolCalls {
				if _, ok := tr.Fixed[tc.Name]; !ok {
					tr.Fixed[tc.Name] = tc.Result
				}
				if _, ok := tr.ByArgs[tc.Name][CanonicalJSON(tc.Arguments)]; !ok {
					tr.set(tc.Name, tc.Arguments, tc.Result)
				}
			}
		}
	}
	return tr
}

func (tr *ToolResults) set(name string, args map[string]any, result string) {
	if tr.ByArgs == nil {
		tr.ByArgs = map[string]map[string]string{}
	}
	if tr.ByArgs[name] == nil {
		tr.ByArgs[name] = map[string]string{}
	}
	tr.ByArgs[name][CanonicalJSON(args)] = result
}

// Lookup returns the result for a call, if the scenario knows it.
func (tr ToolResults) Lookup(tc engine.ToolCall) (string, bool) {
	if r, ok := tr.ByArgs[tc.Name][CanonicalJSON(tc.Arguments)]; ok {
		return r, true
	}
	r, ok := tr.Fixed[tc.Name]
	return r, ok
}

// ToolRunner is the engine.ToolRunner of a real run: results come from the
// scenario, else from AskUser (the app pauses and asks).
type ToolRunner struct {
	Results ToolResults
	// AskUser, if set, answers a call the scenario has no result for. An
	// error from it is the tool's failure, which the model sees; a
	// cancelled ctx ends the run.
	AskUser func(ctx context.Context, tc engine.ToolCall) (string, error)
}

// RunTool implements engine.ToolRunner.
func (r *ToolRunner) RunTool(ctx context.Context, call engine.Call, tc engine.ToolCall) (string, error) {
	if res, ok := r.Results.Lookup(tc); ok {
		return res, nil
	}
	if r.AskUser == nil {
		return "", fmt.Errorf("%w %s(%s): the scenario scripts no result for it and nobody can be asked", ErrNoToolResult, tc.Name, CanonicalJSON(tc.Arguments))
	}
	res, err := r.AskUser(ctx, tc)
	if err != nil {
		return "", fmt.Errorf("ask for the result of %s: %w", tc.Name, err)
	}
	return res, nil
}
