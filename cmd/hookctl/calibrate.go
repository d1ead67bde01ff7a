package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/calibrate"
	"hookstudio/app/agents/locate"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/atomicfile"
)

// calibrateCmd learns the rendering profile of the installed agent CLI and
// writes it to the data folder (agents/<agent>/<version>.json).
func calibrateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	cli := fs.String("cli", "", "the CLI to calibrate (default: the agent's command on PATH)")
	asJSON := fs.Bool("json", false, "print the result (profile, differences) as JSON")
	shape := fs.String("shape", "", "also write the request model's shape (no texts of the CLI's: slots, sizes, hashes) to FILE, as the repository bundles it")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: calibrate takes the agent: hookctl calibrate %s [--cli PATH]", errUsage, profile.ClaudeCode)
	}
	agent := pos[0]
	if !slices.Contains(calibrate.Agents(), agent) {
		return 0, fmt.Errorf("%w: calibrate knows %s (not %q)", errUsage, strings.Join(calibrate.Agents(), ", "), agent)
	}
	path := *cli
	if path == "" {
		if path, err = exec.LookPath(locate.Command(agent)); err != nil {
			return 0, fmt.Errorf("%s is not on PATH: give the CLI with --cli PATH", locate.Command(agent))
		}
	}
	dir, err := studio.DefaultDataDir()
	if err != nil {
		return 0, err
	}
	known, err := profile.NewCatalog(dir).All(agent)
	if err != nil { // a broken calibrated file: compare with the rest
		fmt.Fprintf(stderr, "hookctl: warning: %v\n", err)
	}
	res, err := calibrate.Run(ctx, calibrate.Options{Agent: agent, CLI: path, Known: known, Progress: func(p calibrate.Progress) {
		fmt.Fprintf(stderr, "calibrate: run %d/%d %s: %s\n", p.Run, p.Runs, p.Probe, p.Message)
	}})
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("calibration stopped (%w): nothing was saved", ctx.Err())
		}
		return 0, fmt.Errorf("calibrate %s: %w\nnothing was saved", path, err)
	}
	file, err := calibrate.Save(dir, res.Profile)
	if err != nil {
		return 0, err
	}
	reqFile := ""
	if res.Request != nil {
		if reqFile, err = calibrate.SaveRequest(dir, res.Request); err != nil {
			return 0, err
		}
		if *shape != "" {
			if err := atomicfile.Write(*shape, request.Encode(request.ShapeOf(res.Request)), 0o644); err != nil {
				return 0, err
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return exitOK, enc.Encode(struct {
			*calibrate.Result
			File string `json:"file"`
		}{res, file})
	}
	writeRenderings(stdout, res.Profile)
	switch {
	case res.Nearest == "":
		fmt.Fprintln(stdout, "\nno other profile is known to compare with")
	case len(res.Changes) == 0:
		fmt.Fprintf(stdout, "\nthe same as %s\n", res.Nearest)
	default:
		fmt.Fprintf(stdout, "\nwhat differs from %s:\n", res.Nearest)
		for _, c := range res.Changes {
			fmt.Fprintf(stdout, "  %s %s: %s → %s\n", c.Outcome, c.Field, orNone(c.From), orNone(c.To))
		}
	}
	if res.Request != nil {
		writeRequest(stdout, res.Request)
	}
	fmt.Fprintf(stdout, "\ncalibrated %s in %.1fs (%d requests); saved %s", res.Profile.Ref(), res.Duration.Seconds(), res.Requests, file)
	if reqFile != "" {
		fmt.Fprintf(stdout, " and %s", reqFile)
	}
	fmt.Fprintln(stdout)
	return exitOK, nil
}

// writeRequest prints what the agent sends besides the conversation: each
// piece with its size and slots, the tools.
func writeRequest(w io.Writer, m *request.Model) {
	fmt.Fprintf(w, "\n%s sends its model (%s API, model %s):\n", m.Ref(), m.API, m.Model)
	line := func(kind string, p *request.Piece) {
		when := ""
		if p.When != request.Always {
			when = " (when " + string(p.When) + ")"
		}
		slots := ""
		if len(p.Shape.Slots) > 0 {
			slots = ", slots " + strings.Join(p.Shape.Slots, " ")
		}
		fmt.Fprintf(w, "  %-10s %-9s %6d chars %5d tokens%s%s\n", kind, p.Role, p.Shape.Chars, p.Shape.Tokens, slots, when)
	}
	for i := range m.System {
		line("system", &m.System[i])
	}
	for _, part := range m.Turn {
		switch {
		case part.Prompt:
			fmt.Fprintf(w, "  %-10s the user's prompt\n", "turn")
		case part.Hooks != "":
			fmt.Fprintf(w, "  %-10s %s hooks' words\n", "turn", part.Hooks)
		default:
			line("turn", part.Piece)
		}
	}
	fmt.Fprintf(w, "  tools: %d (%s), %d tokens\n", len(m.Tools), strings.Join(m.ToolNames(), " "), m.ToolTokens(nil))
	for _, r := range m.Loop.Results {
		fmt.Fprintf(w, "  %s's output within words of its own\n", r.Tool)
	}
	if t := m.Tree; t != nil {
		fmt.Fprintf(w, "  the folder listed: up to %d entries, %s order, %s never opened, .gitignore read: %v\n", t.Max, t.Order, strings.Join(t.Ignored, " "), t.Gitignore)
	}
	for _, f := range m.Files {
		fmt.Fprintf(w, "  context file %s (trimmed: %v)\n", f.Name, f.Trim)
	}
	fmt.Fprintf(w, "  loop: no planning call; a blocked answer kept: %v\n", m.Loop.KeepsBlockedAnswer)
	for i := range m.Loop.Sides {
		sd := &m.Loop.Sides[i]
		n := 0
		for _, p := range sd.System {
			n += p.Shape.Tokens
		}
		fmt.Fprintf(w, "  side call %s at %s: %s:%s, its system prompt %d tokens, no scenario round answers it\n", sd.Name, sd.When, sd.Model, sd.Method, n)
	}
}

// writeRenderings prints what each outcome becomes, with example words.
func writeRenderings(w io.Writer, p *profile.Profile) {
	fmt.Fprintf(w, "%s renders hook output so:\n", p.Ref())
	specs := profile.Outcomes(p.Agent)
	if specs == nil { // an agent whose outcomes are not listed: the profile's own, in order
		for _, id := range slices.Sorted(maps.Keys(p.Outcomes)) {
			specs = append(specs, profile.Spec{ID: id, Hook: strings.Replace(id, ".", " ", 1)})
		}
	}
	for _, s := range specs {
		o := p.Outcome(s.ID)
		if o == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s — %s\n", s.ID, strings.ReplaceAll(s.Hook, "`", ""))
		for _, r := range o.Renderings {
			fmt.Fprintf(w, "  %s: %q\n", r.Where(), r.Render(profile.Example(s.ID)).Content)
		}
		if j := o.Join.Words(); j != "" {
			fmt.Fprintf(w, "  several hooks: %s\n", j)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
