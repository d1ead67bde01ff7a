package studio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/convert"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/store/history"
)

// ConvertChoices is what the Export dialog offers: the folders of the open
// folder that hold an agent's hooks, and the agents a set can be written for.
type ConvertChoices struct {
	Sources []ConvertSource `json:"sources"`
	Targets []ConvertTarget `json:"targets"`
}

// ConvertSource is a folder whose hooks can be converted.
type ConvertSource struct {
	// Folder is root-relative ("." the open folder itself).
	Folder string `json:"folder"`
	Agent  string `json:"agent"`
	Title  string `json:"title"`
}

// ConvertTarget is an agent a hook set can be written for.
type ConvertTarget struct {
	Agent string `json:"agent"`
	Title string `json:"title"`
	// Hosted says Hook Studio has that agent's hook system: its validator
	// checks a conversion and a scenario can run under it (RenderUnder).
	Hosted bool `json:"hosted"`
}

// ConvertRequest says what to convert and where to write it.
type ConvertRequest struct {
	// Source is the folder to read, root-relative ("" or "." the open folder).
	Source string `json:"source"`
	To     string `json:"to"`
	// Layout is convert.LayoutProject or LayoutPackage ("" as the source).
	Layout string `json:"layout"`
	// Dir is where to write: root-relative or absolute; "" the source
	// folder when it is the open folder, else a sibling <source>-<agent>.
	Dir string `json:"dir"`
	// Force replaces files of other content.
	Force bool `json:"force"`
}

// ConvertPlan is a conversion as writing it would leave the output folder.
type ConvertPlan struct {
	Source string `json:"source"`
	From   string `json:"from"`
	To     string `json:"to"`
	Layout string `json:"layout"`
	// Dir is the output folder (absolute); DirRel it relative to the open
	// folder ("" when outside it).
	Dir     string `json:"dir"`
	DirRel  string `json:"dir_rel"`
	Written int    `json:"written"`
	Left    int    `json:"left"`
	// Diagnostics say what cannot carry over, at the source's positions
	// (root-relative); SourceDiagnostics are the source's own warnings.
	Diagnostics       []diag.Diagnostic `json:"diagnostics"`
	SourceDiagnostics []diag.Diagnostic `json:"source_diagnostics"`
	Files             []ConvertFile     `json:"files"`
	// Conflicts are files in the way (Force replaces them); Checked what
	// the target's validator says of the written files (Hosted false: it
	// has none in this build).
	Conflicts []diag.Diagnostic `json:"conflicts"`
	Checked   []diag.Diagnostic `json:"checked"`
	Hosted    bool              `json:"hosted"`
	// Unsaved says unsaved editor text of the source was converted.
	Unsaved bool `json:"unsaved"`
	// CanWrite: no conflict, nothing the target refuses, no hook that
	// would not work there (an error in Diagnostics); Wrote: written.
	CanWrite bool `json:"can_write"`
	Wrote    bool `json:"wrote"`
}

// ConvertFile is one file of the plan; Text is a hooks or manifest file's
// content as written (a script's is its source's).
type ConvertFile struct {
	Path   string `json:"path"`
	Role   string `json:"role"`
	Action string `json:"action"`
	Mode   string `json:"mode"`
	// From is the source script a script is copied from, root-relative.
	From string `json:"from,omitempty"`
	Text string `json:"text,omitempty"`
}

// ErrNoHooksToConvert is returned for a source folder without hooks of an
// agent convert reads.
var ErrNoHooksToConvert = errors.New("no hooks to convert")

// ConvertChoices lists the open folder and its folders that hold hooks of
// an agent convert reads, and every target.
func (s *Service) ConvertChoices(ctx context.Context) (ConvertChoices, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	out := ConvertChoices{Sources: []ConvertSource{}, Targets: []ConvertTarget{}}
	for _, a := range convert.Targets() {
		out.Targets = append(out.Targets, ConvertTarget{Agent: a, Title: convert.Title(a), Hosted: s.hosts(a)})
	}
	if root == "" {
		return out, nil
	}
	add := func(folder string) {
		if a := convert.Detect(filepath.Join(root, filepath.FromSlash(folder))); a != "" {
			out.Sources = append(out.Sources, ConvertSource{Folder: folder, Agent: a, Title: convert.Title(a)})
		}
	}
	add(".")
	entries, err := os.ReadDir(root)
	if err != nil {
		return out, fmt.Errorf("convert: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			add(e.Name())
		}
	}
	return out, nil
}

// hosts says whether a hook system of the registry hosts agent's hooks.
func (s *Service) hosts(agent string) bool {
	return slices.ContainsFunc(s.cfg.Hooks.Systems(), func(sys registry.System) bool { return sys.Agent == agent && sys.Load != nil })
}

// PlanConversion converts the request's folder and says what writing it
// would do. Nothing is written.
func (s *Service) PlanConversion(ctx context.Context, req ConvertRequest) (ConvertPlan, error) {
	p, _, err := s.planConversion(ctx, req)
	return p, err
}

// WriteConversion writes the conversion when nothing is in the way (or
// Force) and the target's validator accepts it; the plan says whether it
// did (Wrote) and what stopped it.
func (s *Service) WriteConversion(ctx context.Context, req ConvertRequest) (ConvertPlan, error) {
	p, plan, err := s.planConversion(ctx, req)
	if err != nil || !p.CanWrite {
		return p, err
	}
	if err := convert.Write(p.Dir, plan); err != nil {
		return p, fmt.Errorf("export for %s: %w", convert.Title(req.To), err)
	}
	p.Wrote = true
	return p, nil
}

func (s *Service) planConversion(ctx context.Context, req ConvertRequest) (ConvertPlan, []convert.Planned, error) {
	s.mu.Lock()
	root, drafts := s.root, maps.Clone(s.drafts)
	s.mu.Unlock()
	if root == "" {
		return ConvertPlan{}, nil, errors.New("no folder is open")
	}
	src, err := inside(root, req.Source)
	if err != nil {
		return ConvertPlan{}, nil, err
	}
	srcDir := filepath.Join(root, filepath.FromSlash(src))
	set, warnings, ownDrafts, err := readSet(ctx, srcDir, src, drafts)
	if err != nil {
		return ConvertPlan{}, nil, err
	}
	res, err := convert.Convert(set, req.To, convert.Options{Layout: req.Layout})
	if err != nil {
		return ConvertPlan{}, nil, err
	}
	dir := req.Dir
	switch {
	case dir == "" && src == ".":
		dir = root
	case dir == "":
		dir = filepath.Join(root, filepath.FromSlash(src)+"-"+req.To)
	case !filepath.IsAbs(dir):
		dir = filepath.Join(root, filepath.FromSlash(dir))
	}
	checked, hosted, err := convert.Check(ctx, res, func(ctx context.Context, dir, agent string) ([]diag.Diagnostic, bool, error) {
		return hooksets.Check(ctx, s.cfg.Hooks, dir, agent)
	})
	if err != nil {
		return ConvertPlan{}, nil, err
	}
	plan, conflicts, err := convert.Plan(dir, res, req.Force)
	if err != nil {
		return ConvertPlan{}, nil, err
	}
	p := ConvertPlan{Source: src, From: res.From, To: res.To, Layout: res.Layout, Dir: dir, Written: res.Written, Left: res.Left,
		Diagnostics: under(src, res.Diagnostics), SourceDiagnostics: under(src, warnings), Files: []ConvertFile{},
		Conflicts: nonNilDiags(conflicts), Checked: nonNilDiags(checked), Hosted: hosted, Unsaved: ownDrafts}
	if rel, err := filepath.Rel(root, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		p.DirRel = filepath.ToSlash(rel)
	}
	for _, f := range plan {
		cf := ConvertFile{Path: f.Path, Role: f.Role, Action: f.Action, Mode: fmt.Sprintf("%04o", f.Mode)}
		if f.From != "" {
			cf.From = path.Join(src, f.From)
		}
		if f.Role != "script" {
			cf.Text = string(f.Data)
		}
		p.Files = append(p.Files, cf)
	}
	// nothing in the way, the target loads the files, and every hook does
	// there what it does in the source (an error of the conversion: one
	// would not)
	p.CanWrite = len(conflicts) == 0 && !diag.HasErrors(checked) && !diag.HasErrors(res.Diagnostics)
	return p, plan, nil
}

// readSet reads the hook set of dir (src root-relative), the drafts under
// it laid over its files; whether any was.
func readSet(ctx context.Context, dir, src string, drafts map[string][]byte) (*convert.Set, []diag.Diagnostic, bool, error) {
	agent := convert.Detect(dir)
	if agent == "" {
		return nil, nil, false, fmt.Errorf("%s: %w (Hook Studio converts %s hooks)", src, ErrNoHooksToConvert, strings.Join(convert.Titles(convert.Sources()), ", "))
	}
	own := map[string][]byte{}
	for rel, data := range drafts {
		if src == "." {
			own[rel] = data
		} else if r, ok := strings.CutPrefix(rel, src+"/"); ok {
			own[r] = data
		}
	}
	set, warnings, err := convert.Read(ctx, agent, dir, convert.ReadOptions{Drafts: own})
	var invalid *convert.SourceError
	if errors.As(err, &invalid) {
		e, _ := diag.Count(invalid.Diagnostics)
		first := under(src, invalid.Diagnostics)[0]
		return nil, nil, false, fmt.Errorf("%d error(s) in %s's %s hooks, the first %s:%d:%d: %s; fix them first: %w",
			e, src, convert.Title(agent), first.File, first.Line, first.Column, first.Message, err)
	}
	return set, warnings, len(own) > 0, err
}

// inside checks that folder (root-relative) stays inside root.
func inside(root, folder string) (string, error) {
	folder = path.Clean("/" + filepath.ToSlash(folder))[1:]
	if folder == "" {
		folder = "."
	}
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(folder)))
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s is no folder of the open folder", folder)
	}
	return folder, nil
}

// under makes a source's diagnostics root-relative.
func under(src string, ds []diag.Diagnostic) []diag.Diagnostic {
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		if src != "." && d.File != "" {
			d.File = path.Join(src, d.File)
		}
		out[i] = d
	}
	return out
}

func nonNilDiags(ds []diag.Diagnostic) []diag.Diagnostic {
	if ds == nil {
		return []diag.Diagnostic{}
	}
	return ds
}

// ErrNotHosted is returned by RenderUnder for an agent whose hook system
// this build does not have.
var ErrNotHosted = errors.New("this build has no hook system of that agent")

// RenderUnder plays the scenario file of the open folder once more with its
// project's hooks converted for agent (AGENT or AGENT@VERSION: the version
// whose rendering profile places the hooks' words), and keeps the run in
// the history: History compares it with a run of the same scenario under
// the hooks' own agent, so an author sees where each agent puts them.
//
// The converted hooks run in a scratch folder that holds only them (and
// their scripts), no user-level hook file loaded; the
// scenario's tool names become the target's (Bash is Codex's shell). The
// source folder must be trusted: the converted commands are its scripts.
func (s *Service) RenderUnder(ctx context.Context, file, agent string) (history.RunID, error) {
	ref, err := profile.ParseRef(agent)
	if err != nil {
		return 0, err
	}
	if !slices.Contains(convert.Targets(), ref.Agent) {
		return 0, fmt.Errorf("render under %s: %w", agent, convert.ErrUnknownAgent)
	}
	if !s.hosts(ref.Agent) {
		return 0, fmt.Errorf("render under %s: %w", convert.Title(ref.Agent), ErrNotHosted)
	}
	s.mu.Lock()
	root, drafts := s.root, maps.Clone(s.drafts)
	s.mu.Unlock()
	scratch, err := os.MkdirTemp("", "hookstudio-under-*")
	if err != nil {
		return 0, fmt.Errorf("render under %s: %w", convert.Title(ref.Agent), err)
	}
	defer os.RemoveAll(scratch)
	return s.playAgain(ctx, file, true, func(job *simJob) error {
		// the scenario's project: its first folder when that holds the
		// hooks (a skill folder of the examples), else the open folder
		src := "."
		if first, _, ok := strings.Cut(file, "/"); ok && convert.Detect(filepath.Join(root, first)) != "" {
			src = first
		}
		set, _, _, err := readSet(ctx, filepath.Join(root, filepath.FromSlash(src)), src, drafts)
		if err != nil {
			return err
		}
		res, err := convert.Convert(set, ref.Agent, convert.Options{Layout: convert.LayoutProject})
		if err != nil {
			return err
		}
		if err := convert.Stage(scratch, res); err != nil {
			return err
		}
		// no user-level files: only the converted hooks run
		hooks, err := hooksets.Load(ctx, s.cfg.Hooks, scratch, hooksets.Options{})
		if err != nil {
			return err
		}
		// trusted: the converted commands are the trusted folder's scripts
		job.root, job.sc = scratch, renameTools(job.sc, res.Renamed)
		job.hooks = runHooks{set: hooks, sc: renameTools(job.hooks.sc, res.Renamed), trusted: true,
			exec: ExecRun{Ran: true, Hooks: nonNil(hooks.Hooks()), Metrics: []engine.HookMetric{}}}
		if ref.Version != "" {
			job.agent = agent
		}
		return nil
	}, "render under "+convert.Title(ref.Agent))
}

// renameTools is sc with its tools and tool calls named as the target
// names them (convert.Result.Renamed).
func renameTools(sc *scenario.Scenario, renamed map[string]string) *scenario.Scenario {
	if len(renamed) == 0 {
		return sc
	}
	name := func(n string) string {
		if r, ok := renamed[n]; ok {
			return r
		}
		return n
	}
	c := *sc
	c.Tools = slices.Clone(sc.Tools)
	for i := range c.Tools {
		c.Tools[i].Name = name(c.Tools[i].Name)
	}
	c.Requests = slices.Clone(sc.Requests)
	for i := range c.Requests {
		r := &c.Requests[i]
		r.Rounds = slices.Clone(r.Rounds)
		for j := range r.Rounds {
			r.Rounds[j].ToolCalls = slices.Clone(r.Rounds[j].ToolCalls)
			for k := range r.Rounds[j].ToolCalls {
				r.Rounds[j].ToolCalls[k].Name = name(r.Rounds[j].ToolCalls[k].Name)
			}
		}
	}
	return &c
}
