package profile

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"hookstudio/app/format/jsondoc"
)

// bundled are the profiles shipped in the binary, produced by hookctl
// calibrate against the agent CLIs pinned in tools/agents.
//
//go:embed bundled
var bundled embed.FS

// Folder is the data folder's subfolder of profiles: agents/<agent>/<version>.json.
const Folder = "agents"

// Path is where a calibrated profile of agent@version lives under the app's
// data folder.
func Path(dataDir, agent, version string) string {
	return filepath.Join(dataDir, Folder, agent, version+".json")
}

// ErrUnknownVersion is wrapped when no profile exists for a version.
var ErrUnknownVersion = errors.New("no rendering profile for this version")

// UnknownVersionError names the version asked for and the known ones.
type UnknownVersionError struct {
	Agent, Version string
	Known          []string
}

func (e *UnknownVersionError) Error() string {
	known := "none"
	if len(e.Known) > 0 {
		known = strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("%s %s: no rendering profile for this version (known: %s); calibrate it with `hookctl calibrate %s --cli PATH` (the CLI of that version)",
		e.Agent, e.Version, known, e.Agent)
}

func (e *UnknownVersionError) Unwrap() error { return ErrUnknownVersion }

// Catalog finds profiles: the bundled ones and those calibrated into a data
// folder (which win for the same version: the user measured them).
type Catalog struct {
	dataDir string
	bundled fs.FS
}

// NewCatalog reads the bundled profiles and, when dataDir is not empty,
// those under dataDir/agents.
func NewCatalog(dataDir string) *Catalog {
	sub, _ := fs.Sub(bundled, "bundled")
	return &Catalog{dataDir: dataDir, bundled: sub}
}

// DataDir is the data folder calibrated profiles are read from ("" none).
func (c *Catalog) DataDir() string { return c.dataDir }

// Entry is one known profile version.
type Entry struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	Origin  Origin `json:"origin"`
	File    string `json:"file"`
}

// Versions lists agent's known profiles, oldest first; a calibrated file
// replaces the bundled one of its version.
func (c *Catalog) Versions(agent string) ([]Entry, error) {
	byVersion := map[string]Entry{}
	names, err := fs.Glob(c.bundled, agent+"/*.json")
	if err != nil {
		return nil, fmt.Errorf("bundled profiles: %w", err)
	}
	for _, n := range names {
		v := strings.TrimSuffix(path.Base(n), ".json")
		byVersion[v] = Entry{Agent: agent, Version: v, Origin: Bundled, File: "bundled/" + n}
	}
	if c.dataDir != "" {
		dir := filepath.Join(c.dataDir, Folder, agent)
		files, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("calibrated profiles: %w", err)
		}
		for _, f := range files {
			if v, ok := strings.CutSuffix(f.Name(), ".json"); ok && !f.IsDir() && versionRe.MatchString(v) {
				byVersion[v] = Entry{Agent: agent, Version: v, Origin: Calibrated, File: filepath.Join(dir, f.Name())}
			}
		}
	}
	out := make([]Entry, 0, len(byVersion))
	for _, e := range byVersion {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return CompareVersions(a.Version, b.Version) })
	return out, nil
}

// Get loads agent@version; an unknown version is an *UnknownVersionError.
func (c *Catalog) Get(agent, version string) (*Profile, error) {
	es, err := c.Versions(agent)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Version == version {
			return c.load(e)
		}
	}
	known := make([]string, len(es))
	for i, e := range es {
		known[i] = e.Version
	}
	return nil, &UnknownVersionError{Agent: agent, Version: version, Known: known}
}

// Has says whether a profile of agent@version is known.
func (c *Catalog) Has(agent, version string) bool {
	es, err := c.Versions(agent)
	return err == nil && slices.ContainsFunc(es, func(e Entry) bool { return e.Version == version })
}

// NewestBundled is the newest bundled profile of agent.
func (c *Catalog) NewestBundled(agent string) (*Profile, error) {
	es, err := c.Versions(agent)
	if err != nil {
		return nil, err
	}
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Origin == Bundled {
			return c.load(es[i])
		}
	}
	// a calibrated file replaced every bundled version: the bundled file itself
	names, _ := fs.Glob(c.bundled, agent+"/*.json")
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: no bundled profile of %s", ErrUnknownVersion, agent)
	}
	slices.SortFunc(names, func(a, b string) int {
		return CompareVersions(strings.TrimSuffix(path.Base(a), ".json"), strings.TrimSuffix(path.Base(b), ".json"))
	})
	n := names[len(names)-1]
	return c.load(Entry{Agent: agent, Version: strings.TrimSuffix(path.Base(n), ".json"), Origin: Bundled, File: "bundled/" + n})
}

// All loads every known profile of agent, oldest first; a file that does
// not load is an error naming it.
func (c *Catalog) All(agent string) ([]*Profile, error) {
	es, err := c.Versions(agent)
	if err != nil {
		return nil, err
	}
	var out []*Profile
	var errs []error
	for _, e := range es {
		p, err := c.load(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

func (c *Catalog) load(e Entry) (*Profile, error) {
	var data []byte
	var err error
	if e.Origin == Bundled {
		data, err = fs.ReadFile(c.bundled, strings.TrimPrefix(e.File, "bundled/"))
	} else {
		data, err = os.ReadFile(e.File)
	}
	if err != nil {
		return nil, fmt.Errorf("rendering profile %s@%s: %w", e.Agent, e.Version, err)
	}
	p, err := Parse(e.File, data)
	if err != nil {
		return nil, err
	}
	if p.Agent != e.Agent || p.Version != e.Version {
		return nil, mismatch(e, p, data)
	}
	p.Origin, p.File = e.Origin, e.File
	return p, nil
}

// Ref is an agent and, optionally, a version: "claude-code@2.1.332".
type Ref struct {
	Agent   string `json:"agent"`
	Version string `json:"version,omitempty"`
}

func (r Ref) String() string {
	if r.Version == "" {
		return r.Agent
	}
	return r.Agent + "@" + r.Version
}

// ErrBadRef is wrapped when an agent reference cannot be read.
var ErrBadRef = errors.New("bad agent reference")

// ParseRef reads "agent" or "agent@version".
func ParseRef(s string) (Ref, error) {
	agent, version, _ := strings.Cut(strings.TrimSpace(s), "@")
	r := Ref{Agent: agent, Version: version}
	if !agentRe.MatchString(agent) {
		return r, fmt.Errorf("%w %q: write agent@version, such as claude-code@2.1.332", ErrBadRef, s)
	}
	if version != "" && !versionRe.MatchString(version) {
		return r, fmt.Errorf("%w %q: %q is not a version such as 2.1.332", ErrBadRef, s, version)
	}
	return r, nil
}

// How a profile was chosen, in the order they are tried.
const (
	ByScenario  = "scenario"  // the scenario's agent: agent@version
	ByFlag      = "flag"      // hookctl --agent, the app's picker
	ByInstalled = "installed" // the installed CLI's version, which has a profile
	ByNewest    = "newest"    // the newest bundled profile
)

// Choice is the profile chosen for a run and why.
type Choice struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	By      string `json:"by"`
}

// Choose picks agent's profile for a run: the scenario's version, else the
// flag's, else the installed CLI's (installed may be nil; "" when none is
// found) when a profile exists for it, else the newest bundled. A version
// asked for that has no profile is an *UnknownVersionError, never a
// fall-back.
func (c *Catalog) Choose(agent string, scenario, flag Ref, installed func() string) (*Profile, Choice, error) {
	for _, w := range []struct {
		ref Ref
		by  string
	}{{scenario, ByScenario}, {flag, ByFlag}} {
		if w.ref.Agent != agent || w.ref.Version == "" {
			continue
		}
		p, err := c.Get(agent, w.ref.Version)
		if err != nil {
			return nil, Choice{}, err
		}
		p.By = w.by
		return p, Choice{Agent: agent, Version: p.Version, By: w.by}, nil
	}
	if installed != nil {
		if v := installed(); v != "" && c.Has(agent, v) {
			p, err := c.Get(agent, v)
			if err != nil {
				return nil, Choice{}, err
			}
			p.By = ByInstalled
			return p, Choice{Agent: agent, Version: v, By: ByInstalled}, nil
		}
	}
	p, err := c.NewestBundled(agent)
	if err != nil {
		return nil, Choice{}, err
	}
	p.By = ByNewest
	return p, Choice{Agent: agent, Version: p.Version, By: ByNewest}, nil
}

// CompareVersions orders dotted versions numerically (2.1.99 < 2.1.197).
func CompareVersions(a, b string) int {
	as, bs := strings.FieldsFunc(a, isSep), strings.FieldsFunc(b, isSep)
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		switch {
		case errx == nil && erry == nil && x != y:
			if x < y {
				return -1
			}
			return 1
		case (errx != nil || erry != nil) && as[i] != bs[i]:
			return strings.Compare(as[i], bs[i])
		}
	}
	return len(as) - len(bs)
}

func isSep(r rune) bool { return r == '.' || r == '-' || r == '+' }

// mismatch reports a file whose agent or version is not its name's.
func mismatch(e Entry, p *Profile, data []byte) error {
	l := &loader{file: e.File, lines: jsondoc.NewLines(data)}
	doc, err := jsondoc.Parse(data)
	if err != nil { // Parse read it a moment ago
		return err
	}
	if p.Agent != e.Agent {
		l.errorf(doc.Root.Get("agent").Offset, CodeMismatch, "agent %q in a file under agents/%s/: a profile's file is agents/<agent>/<version>.json", p.Agent, e.Agent)
	}
	if p.Version != e.Version {
		l.errorf(doc.Root.Get("version").Offset, CodeMismatch, "version %q in %s.json: a profile's file is agents/<agent>/<version>.json", p.Version, e.Version)
	}
	return l.err()
}

// Picker chooses the profile of each run: the catalog, the version asked
// for outside the scenario (hookctl --agent, the app's picker) and the
// installed CLI's version.
type Picker struct {
	Catalog *Catalog
	Flag    Ref
	// Installed is the installed CLI's version of an agent ("" none; nil:
	// not looked up).
	Installed func(agent string) string
}

// Choose is Catalog.Choose with the picker's flag and installed CLI, for
// a scenario whose agent: is scenario ("" none). A nil Picker knows the
// bundled profiles only.
func (p *Picker) Choose(agent, scenario string) (*Profile, Choice, error) {
	if p == nil {
		p = &Picker{}
	}
	c := p.Catalog
	if c == nil {
		c = NewCatalog("")
	}
	var sc Ref
	if scenario != "" {
		var err error
		if sc, err = ParseRef(scenario); err != nil {
			return nil, Choice{}, err
		}
	}
	var installed func() string
	if p.Installed != nil {
		installed = func() string { return p.Installed(agent) }
	}
	return c.Choose(agent, sc, p.Flag, installed)
}
