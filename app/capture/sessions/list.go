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

// Locations are the folders agents keep their sessions in ("": none).
type Locations struct {
	// Claude is Claude Code's projects folder (~/.claude/projects).
	Claude string `json:"claude"`
	// Codex is Codex's sessions folder ($CODEX_HOME/sessions).
	Codex string `json:"codex"`
	// Gemini is Gemini CLI's folder of projects' chats (~/.gemini/tmp).
	Gemini string `json:"gemini"`
	// Qwen is Qwen Code's projects folder (~/.qwen/projects).
	Qwen string `json:"qwen"`
	// Copilot is Copilot CLI's sessions folder (~/.copilot/session-state).
	Copilot string `json:"copilot"`
}

// DefaultLocations are where the agents keep sessions for this user:
// $CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex,
// $GEMINI_CLI_HOME/.gemini or ~/.gemini, $QWEN_HOME or ~/.qwen,
// $COPILOT_HOME or ~/.copilot (as the pinned CLIs find them).
func DefaultLocations() Locations {
	home, _ := os.UserHomeDir()
	dir := func(env, fallback, sub string) string {
		d := os.Getenv(env)
		if d == "" && home != "" {
			d = filepath.Join(home, fallback)
		}
		if d == "" {
			return ""
		}
		return filepath.Join(d, sub)
	}
	l := Locations{Claude: dir("CLAUDE_CONFIG_DIR", ".claude", "projects"), Codex: dir("CODEX_HOME", ".codex", "sessions"),
		Qwen: dir("QWEN_HOME", ".qwen", "projects"), Copilot: dir("COPILOT_HOME", ".copilot", "session-state")}
	if g := os.Getenv("GEMINI_CLI_HOME"); g != "" {
		l.Gemini = filepath.Join(g, ".gemini", "tmp")
	} else if home != "" {
		l.Gemini = filepath.Join(home, ".gemini", "tmp")
	}
	return l
}

// Folders are the locations' folders, by agent.
func (l Locations) Folders() map[Agent]string {
	return map[Agent]string{ClaudeCode: l.Claude, Codex: l.Codex, GeminiCLI: l.Gemini, QwenCode: l.Qwen, CopilotCLI: l.Copilot}
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

// Files are the transcripts under the locations, with their agent: Claude
// Code's <project>/<session>.jsonl, Codex's rollout-*.jsonl at any depth,
// Gemini CLI's <project>/chats/session-*.jsonl, Qwen Code's
// <project>/chats/*.jsonl, Copilot CLI's <session>/events.jsonl.
func Files(l Locations) ([]FileRef, error) {
	var out []FileRef
	for _, g := range []struct {
		agent         Agent
		root, pattern string
	}{
		{ClaudeCode, l.Claude, "*/*.jsonl"},
		{GeminiCLI, l.Gemini, "*/chats/session-*.jsonl"},
		{QwenCode, l.Qwen, "*/chats/*.jsonl"},
		{CopilotCLI, l.Copilot, "*/events.jsonl"},
	} {
		if g.root == "" {
			continue
		}
		if _, err := os.Stat(g.root); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		files, err := filepath.Glob(filepath.Join(g.root, g.pattern))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			out = append(out, FileRef{Agent: g.agent, Path: f})
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
	if ref.Agent == GeminiCLI {
		s.Project = geminiProject(ref.Path)
	}
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
			switch ref.Agent {
			case Codex:
				sc.codex(line)
			case GeminiCLI:
				sc.gemini(line)
			case QwenCode:
				sc.qwen(line)
			case CopilotCLI:
				sc.copilot(line)
			default:
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
	if s.Started.IsZero() {
		s.Started, s.Ended = s.Modified, s.Modified // no record says when: the file's last change
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
