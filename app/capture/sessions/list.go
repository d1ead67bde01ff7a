package sessions

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Locations are the folders agents keep their sessions in.
type Locations struct {
	// Claude is Claude Code's projects folder (~/.claude/projects).
	Claude string `json:"claude"`
	// Codex is Codex's sessions folder ($CODEX_HOME/sessions).
	Codex string `json:"codex"`
}

// DefaultLocations are where the agents keep sessions for this user:
// $CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex.
func DefaultLocations() Locations {
	home, _ := os.UserHomeDir()
	claude := os.Getenv("CLAUDE_CONFIG_DIR")
	if claude == "" && home != "" {
		claude = filepath.Join(home, ".claude")
	}
	codex := os.Getenv("CODEX_HOME")
	if codex == "" && home != "" {
		codex = filepath.Join(home, ".codex")
	}
	var l Locations
	if claude != "" {
		l.Claude = filepath.Join(claude, "projects")
	}
	if codex != "" {
		l.Codex = filepath.Join(codex, "sessions")
	}
	return l
}

// Summary is a session as a list shows it, read without importing it.
type Summary struct {
	Agent   Agent     `json:"agent"`
	Version string    `json:"version"`
	ID      string    `json:"id"`
	File    string    `json:"file"`
	Project string    `json:"project"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
	Prompt  string    `json:"prompt"`
	Turns   int       `json:"turns"`
	Calls   int       `json:"calls"` // model calls (answers)
	Model   string    `json:"model"`
	// Hooks are the hooks that fired, by their agent's label, and how often.
	Hooks    []HookCount `json:"hooks"`
	Size     int64       `json:"size"`
	Modified time.Time   `json:"modified"`
}

// HookCount is how often a hook event fired in a session.
type HookCount struct {
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Filter narrows a list.
type Filter struct {
	Agent   Agent  `json:"agent"`   // "": every agent
	Project string `json:"project"` // the folder the agent ran in, or one inside it
	// Search keeps sessions whose project, first prompt, model, id or
	// hooks contain it (any case).
	Search string `json:"search"`
}

// Files are the transcripts under the locations, with their agent.
func Files(l Locations) ([]FileRef, error) {
	var out []FileRef
	if l.Claude != "" {
		projects, err := os.ReadDir(l.Claude)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, p := range projects {
			if !p.IsDir() {
				continue
			}
			files, _ := filepath.Glob(filepath.Join(l.Claude, p.Name(), "*.jsonl"))
			for _, f := range files {
				out = append(out, FileRef{Agent: ClaudeCode, Path: f})
			}
		}
	}
	if l.Codex != "" {
		err := filepath.WalkDir(l.Codex, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if !d.IsDir() && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(d.Name(), ".jsonl") {
				out = append(out, FileRef{Agent: Codex, Path: path})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FileRef is a transcript and the agent that writes it.
type FileRef struct {
	Agent Agent
	Path  string
}

// Lister lists sessions, remembering each file's summary until the file
// changes (a session being written is read again, the others not).
type Lister struct {
	cache map[string]cached
}

type cached struct {
	size int64
	mod  time.Time
	sum  Summary
}

// NewLister makes a lister with an empty memory.
func NewLister() *Lister { return &Lister{cache: map[string]cached{}} }

// List summarises the sessions under l that pass f, newest first.
func (ls *Lister) List(ctx context.Context, l Locations, f Filter) ([]Summary, error) {
	refs, err := Files(l)
	if err != nil {
		return nil, err
	}
	project := ""
	if f.Project != "" {
		if project, err = filepath.Abs(f.Project); err != nil {
			return nil, err
		}
	}
	out := []Summary{}
	seen := map[string]bool{}
	for _, ref := range refs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.Agent != "" && ref.Agent != f.Agent {
			continue
		}
		seen[ref.Path] = true
		st, err := os.Stat(ref.Path)
		if err != nil {
			continue // gone since it was listed
		}
		c, ok := ls.cache[ref.Path]
		if !ok || c.size != st.Size() || !c.mod.Equal(st.ModTime()) {
			sum, err := Summarize(ref)
			if err != nil {
				continue
			}
			c = cached{size: st.Size(), mod: st.ModTime(), sum: sum}
			ls.cache[ref.Path] = c
		}
		if project != "" && c.sum.Project != project && !strings.HasPrefix(c.sum.Project, project+string(filepath.Separator)) {
			continue
		}
		if !c.sum.matches(f.Search) {
			continue
		}
		out = append(out, c.sum)
	}
	for p := range ls.cache {
		if !seen[p] && f.Agent == "" {
			delete(ls.cache, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Summary) int { return b.latest().Compare(a.latest()) })
	return out, nil
}

func (s Summary) latest() time.Time {
	if s.Ended.IsZero() {
		return s.Modified
	}
	return s.Ended
}

func (s Summary) matches(q string) bool {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return true
	}
	hay := []string{s.Project, s.Prompt, s.Model, s.ID, string(s.Agent), s.Version}
	for _, h := range s.Hooks {
		hay = append(hay, h.Label)
	}
	for _, h := range hay {
		if strings.Contains(strings.ToLower(h), q) {
			return true
		}
	}
	return false
}

// Summarize reads what a list shows of one transcript, a line at a time
// and only the fields it needs.
func Summarize(ref FileRef) (Summary, error) {
	f, err := os.Open(ref.Path)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Agent: ref.Agent, File: ref.Path, Size: st.Size(), Modified: st.ModTime(), Hooks: []HookCount{}}
	sc := summarizer{s: &s, answers: map[string]bool{}, stops: map[string]int{}}
	rd := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := rd.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// a long line (a tool's output, a blob): read it whole
			rest, err2 := rd.ReadBytes('\n')
			line = append(append([]byte(nil), line...), rest...)
			err = err2
		}
		if len(line) > 0 {
			if ref.Agent == Codex {
				sc.codex(line)
			} else {
				sc.claude(line)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

type summarizer struct {
	s       *Summary
	answers map[string]bool
	// Stop hooks already counted by their own record, by the stop's id
	// (its summary lists them again)
	stops map[string]int
	// inAnswer: the last Codex item read is the model's (one call's items)
	inAnswer bool
}

func (sc *summarizer) hook(label string) {
	for i := range sc.s.Hooks {
		if sc.s.Hooks[i].Label == label {
			sc.s.Hooks[i].Count++
			return
		}
	}
	sc.s.Hooks = append(sc.s.Hooks, HookCount{Label: label, Count: 1})
}

func (sc *summarizer) times(ts string) { widen(&sc.s.Started, &sc.s.Ended, ts) }

func (sc *summarizer) claude(line []byte) {
	var r struct {
		Type        string `json:"type"`
		Subtype     string `json:"subtype"`
		SessionID   string `json:"sessionId"`
		Version     string `json:"version"`
		Cwd         string `json:"cwd"`
		Timestamp   string `json:"timestamp"`
		IsMeta      bool   `json:"isMeta"`
		IsSidechain bool   `json:"isSidechain"`
		IsCompact   bool   `json:"isCompactSummary"`
		Message     *struct {
			ID      string          `json:"id"`
			Model   string          `json:"model"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		Attachment *struct {
			Type      string `json:"type"`
			HookName  string `json:"hookName"`
			HookEvent string `json:"hookEvent"`
			ToolUseID string `json:"toolUseID"`
		} `json:"attachment"`
		HookInfos []json.RawMessage `json:"hookInfos"`
		ToolUseID string            `json:"toolUseID"`
	}
	if json.Unmarshal(line, &r) != nil {
		return
	}
	s := sc.s
	if s.ID == "" {
		s.ID = r.SessionID
	}
	if s.Version == "" {
		s.Version = r.Version
	}
	if s.Project == "" {
		s.Project = r.Cwd
	}
	sc.times(r.Timestamp)
	switch r.Type {
	case "user":
		if r.Message != nil && !r.IsMeta && !r.IsSidechain && !r.IsCompact {
			if p := promptText(r.Message.Content); p != "" {
				s.Turns++
				if s.Prompt == "" {
					s.Prompt = cutRunes(p, PromptMax)
				}
			}
		}
	case "assistant":
		if r.Message != nil && !sc.answers[r.Message.ID] {
			sc.answers[r.Message.ID] = true
			s.Calls++
			if s.Model == "" && r.Message.Model != "<synthetic>" {
				s.Model = r.Message.Model
			}
		}
	case "attachment":
		if a := r.Attachment; a != nil && strings.HasPrefix(a.Type, "hook_") && a.Type != "hook_additional_context" {
			sc.hook(firstOf(a.HookName, a.HookEvent))
			if a.HookEvent == "Stop" {
				sc.stops[a.ToolUseID]++
			}
		}
	case "system":
		if r.Subtype == "stop_hook_summary" {
			for range len(r.HookInfos) - sc.stops[r.ToolUseID] {
				sc.hook("Stop")
			}
		}
	}
}
