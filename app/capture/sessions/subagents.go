package sessions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
)

// Claude Code keeps each sub-agent's transcript beside the session's:
// <session>.jsonl's sub-agents are <session>/subagents/agent-<id>.jsonl,
// with agent-<id>.meta.json saying what the Agent tool asked for (its
// kind, its task's words, the tool call) — measured on 2.1.197 and
// 2.1.332. Older versions wrote a sub-agent's records into the session's
// own file, marked isSidechain. Either way each sub-agent is a
// conversation of its own, a request of the trace that says which call
// started it (engine.Subagent).

// SubagentInfo is one sub-agent a session ran.
type SubagentInfo struct {
	// ID is the agent's id of it ("a" and 16 hex digits).
	ID string `json:"id"`
	// Type is its kind ("general-purpose", "Explore"), Description the
	// Agent tool call's words for its task.
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	// ToolUseID is the Agent tool call that started it ("": not known).
	ToolUseID string `json:"tool_use_id,omitempty"`
	// File is its transcript ("": in the session's own file).
	File string `json:"file,omitempty"`
	// Request is its request in the run's trace (-1: it made no call and
	// no hook fired yet).
	Request int `json:"request"`
}

// subagentMeta is Claude Code's agent-<id>.meta.json.
type subagentMeta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	ToolUseID   string `json:"toolUseId"`
}

// SubagentFiles are the sub-agents' transcripts of the session at main,
// in the order of their names.
func SubagentFiles(main string) []string {
	files, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents", "agent-*.jsonl"))
	slices.Sort(files)
	return files
}

// subagentsDir is where Claude Code keeps main's sub-agents.
func subagentsDir(main string) string {
	return filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents")
}

// subFeed is a sub-agent's transcript, read line by line as it grows.
type subFeed struct {
	path, name string
	id         string
	meta       subagentMeta
	partial    []byte
	line       int
	offset     int64 // whole lines read
}

// subagentKey is the conversation of the sub-agent with id.
func subagentKey(id string) string { return "sidechain:" + id }

// subagentTree tells apart the sub-agents an older Claude Code wrote into
// the session's own file: each is the chain of sidechain records from a
// root of its own (no agent id names them).
type subagentTree struct {
	roots map[string]string // a sidechain record's uuid → its root's
	// subPrompts are the prompts sub-agents were given, by conversation
	subPrompts map[*conversation]string
}

// subagentPrompt keeps the first prompt of a sub-agent's conversation.
func (r *claudeReader) subagentPrompt(rec *claudeRecord) {
	if !rec.IsSidechain || rec.IsMeta || rec.Message == nil {
		return
	}
	cv := r.convOf(rec)
	if _, ok := r.subPrompts[cv]; ok {
		return
	}
	if p := promptText(rec.Message.Content); p != "" {
		r.subPrompts[cv] = p
	}
}

// sidechainKey is the conversation a sidechain record belongs to.
func (r *claudeReader) sidechainKey(rec *claudeRecord) string {
	if rec.AgentID != "" {
		return subagentKey(rec.AgentID)
	}
	root, ok := r.roots[rec.ParentUUID]
	if !ok {
		root = rec.UUID
	}
	if rec.UUID != "" {
		r.roots[rec.UUID] = root
	}
	return "sidechain:" + root
}

// agentResult reads what a tool result's record says of the sub-agent
// that produced it: the Agent tool's result names the sub-agent's id and
// kind, which links a sub-agent to its call where no meta file does.
func (r *claudeReader) agentResult(rec *claudeRecord) {
	if len(rec.ToolUseResult) == 0 || rec.ToolUseResult[0] != '{' || rec.Message == nil {
		return
	}
	var res struct {
		AgentID   string `json:"agentId"`
		AgentType string `json:"agentType"`
	}
	if json.Unmarshal(rec.ToolUseResult, &res) != nil || res.AgentID == "" {
		return
	}
	blocks, ok := toolResults(rec.Message.Content)
	if !ok || len(blocks) != 1 {
		return
	}
	var tr struct {
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(blocks[0], &tr) != nil || tr.ToolUseID == "" {
		return
	}
	info := r.b.subagent(r.b.conv(subagentKey(res.AgentID)))
	info.ID = res.AgentID
	info.ToolUseID = firstOf(info.ToolUseID, tr.ToolUseID)
	info.Type = firstOf(info.Type, res.AgentType)
}

// ReadSubagents reads what the session's sub-agents' transcripts hold
// beyond what was read of them (Claude Code's; any other agent's session
// has none): an import reads them after the session's file, a follow
// again after each change.
func (im *Importer) ReadSubagents(ctx context.Context) error {
	if im.sess.Agent != ClaudeCode || im.r == nil || im.sess.File == "" {
		return nil
	}
	var errs []error
	for _, path := range SubagentFiles(im.sess.File) {
		if err := ctx.Err(); err != nil {
			return err
		}
		f := im.subs[path]
		if f == nil {
			f = newSubFeed(path)
			if im.subs == nil {
				im.subs = map[string]*subFeed{}
			}
			im.subs[path] = f
			info := im.b.subagent(im.b.conv(subagentKey(f.id)))
			info.ID, info.File = f.id, path
			info.Type = firstOf(f.meta.AgentType, info.Type)
			info.Description = firstOf(f.meta.Description, info.Description)
			info.ToolUseID = firstOf(f.meta.ToolUseID, info.ToolUseID)
		}
		if err := im.readSub(ctx, f); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func newSubFeed(path string) *subFeed {
	name := filepath.Base(path)
	f := &subFeed{path: path, name: name, id: strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl")}
	if data, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".meta.json"); err == nil {
		_ = json.Unmarshal(data, &f.meta)
	}
	return f
}

// readSub reads f's lines beyond those read (a file that shrank is not
// read again: its lines are in the run already).
func (im *Importer) readSub(ctx context.Context, f *subFeed) error {
	file, err := os.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer file.Close()
	if _, err := file.Seek(f.offset+int64(len(f.partial)), io.SeekStart); err != nil {
		return err
	}
	im.at = f
	defer func() { im.at = nil }()
	buf := make([]byte, chunk)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := file.Read(buf)
		im.feedSub(f, buf[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", f.path, err)
		}
	}
	// a last line written without its newline, when it is whole
	if len(f.partial) > 0 && json.Valid(f.partial) {
		line := f.partial
		f.partial = nil
		f.offset += int64(len(line))
		im.subLine(f, line)
	}
	return nil
}

// feedSub reads the whole lines of p, keeping an incomplete last one.
func (im *Importer) feedSub(f *subFeed, p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.partial = append(f.partial, p...)
			return
		}
		line := p[:i]
		if len(f.partial) > 0 {
			line = append(f.partial, line...)
			f.partial = nil
		}
		f.offset += int64(len(line)) + 1
		im.subLine(f, line)
		p = p[i+1:]
	}
}

func (im *Importer) subLine(f *subFeed, line []byte) {
	f.line++
	if line = bytes.TrimRight(line, "\r"); len(bytes.TrimSpace(line)) > 0 {
		im.r.line(f.line, line)
	}
}

// subInfo is what the import knows of a sub-agent's conversation.
type subInfo = SubagentInfo

// subagent is what is known of cv as a sub-agent's conversation, made on
// first use.
func (b *builder) subagent(cv *conversation) *subInfo {
	if b.subs == nil {
		b.subs = map[*conversation]*subInfo{}
	}
	info := b.subs[cv]
	if info == nil {
		info = &subInfo{Request: -1}
		b.subs[cv] = info
	}
	return info
}

// callAt is a model call of a conversation.
type callAt struct {
	conv *conversation
	k    int
}

// subagentTools are the tools that start a sub-agent (Claude Code's
// Agent, formerly Task): an older transcript's sidechain is linked to the
// call of one whose prompt it began with.
var subagentTools = []string{"Agent", "Task"}

// nest says, in each request of rec that is a sub-agent's conversation,
// which call started it; reqOf is each conversation's request.
func (b *builder) nest(rec *engine.Record, reqOf map[*conversation]int, callOff map[*conversation]int) {
	for _, cv := range b.convs {
		req, ok := reqOf[cv]
		if !ok || !strings.HasPrefix(cv.key, "sidechain:") {
			continue
		}
		info := b.subagent(cv)
		if info.ToolUseID == "" {
			info.ToolUseID = b.promptCall(cv)
		}
		sub := &engine.Subagent{Parent: -1, Call: -1, Tool: -1, ToolUseID: info.ToolUseID, AgentID: info.ID, Type: info.Type,
			Description: info.Description}
		if i, ok := b.toolByID[info.ToolUseID]; ok && info.ToolUseID != "" {
			sub.Tool = int(i)
			tc := b.toolCalls[i]
			if sub.Type == "" {
				sub.Type, _ = tc.Arguments["subagent_type"].(string)
			}
			if sub.Description == "" {
				sub.Description, _ = tc.Arguments["description"].(string)
			}
		}
		if at, ok := b.asked[info.ToolUseID]; ok && info.ToolUseID != "" {
			if p, ok := reqOf[at.conv]; ok {
				sub.Parent, sub.Call = p, callOff[at.conv]+at.k
			}
		}
		rec.Requests[req].Subagent = sub
	}
}

// promptCall is the sub-agent tool call whose prompt cv's conversation
// began with ("" none).
func (b *builder) promptCall(cv *conversation) string {
	if cv.user == "" {
		return ""
	}
	for _, tc := range b.toolCalls {
		if p, _ := tc.Arguments["prompt"].(string); slices.Contains(subagentTools, tc.Name) && p == cv.user && tc.ID != "" {
			return tc.ID
		}
	}
	return ""
}

// subagentList is what the session's sub-agents are, in the order of
// their conversations.
func (b *builder) subagentList(reqOf map[*conversation]int) []SubagentInfo {
	var out []SubagentInfo
	for _, cv := range b.convs {
		if !strings.HasPrefix(cv.key, "sidechain:") {
			continue
		}
		info := *b.subagent(cv)
		if info.ID == "" {
			info.ID = strings.TrimPrefix(cv.key, "sidechain:")
		}
		if info.ToolUseID == "" {
			info.ToolUseID = b.promptCall(cv)
		}
		info.Request = -1
		if r, ok := reqOf[cv]; ok {
			info.Request = r
		}
		out = append(out, info)
	}
	return out
}
