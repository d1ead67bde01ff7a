package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/claudehook"
)

// claudeRecord is one line of a Claude Code transcript: the fields read.
type claudeRecord struct {
	Type               string          `json:"type"`
	Subtype            string          `json:"subtype"`
	UUID               string          `json:"uuid"`
	ParentUUID         string          `json:"parentUuid"`
	IsSidechain        bool            `json:"isSidechain"`
	AgentID            string          `json:"agentId"`
	IsMeta             bool            `json:"isMeta"`
	IsCompactSummary   bool            `json:"isCompactSummary"`
	SessionID          string          `json:"sessionId"`
	Version            string          `json:"version"`
	Cwd                string          `json:"cwd"`
	Entrypoint         string          `json:"entrypoint"`
	Timestamp          string          `json:"timestamp"`
	Message            *claudeMessage  `json:"message"`
	Attachment         json.RawMessage `json:"attachment"`
	Rendered           []renderedPart  `json:"rendered"`
	RenderedRole       string          `json:"renderedRole"`
	RequestRef         string          `json:"requestRef"`
	IsAPIErrorMessage  bool            `json:"isApiErrorMessage"`
	HookTextLead       string          `json:"hookTextLead"`
	ToolUseID          string          `json:"toolUseID"`
	PermissionDecision *struct {
		Source     string `json:"source"`
		ReasonCode string `json:"reasonCode"`
	} `json:"permissionDecision"`

	// api-request: the request as sent, from the one before it (base: keep
	// its first Keep messages) and the messages added (tail, by hash)
	ID           string          `json:"id"`
	QuerySource  string          `json:"querySource"`
	ShapeHash    string          `json:"shapeHash"`
	Params       json.RawMessage `json:"params"`
	Base         string          `json:"base"`
	Keep         int             `json:"keep"`
	Tail         []string        `json:"tail"`
	CacheControl []cacheControl  `json:"cacheControl"`
	// api-request-blob
	Hash string `json:"hash"`
	// api-request-shape: the system prompt and tools
	Shape *struct {
		System json.RawMessage `json:"system"`
		Tools  json.RawMessage `json:"tools"`
	} `json:"shape"`
	// system stop_hook_summary
	HookInfos []struct {
		Command    string   `json:"command"`
		DurationMs *float64 `json:"durationMs"`
	} `json:"hookInfos"`
	HookErrors            []string `json:"hookErrors"`
	PreventedContinuation bool     `json:"preventedContinuation"`
	StopReason            string   `json:"stopReason"`
}

type renderedPart struct {
	Content string `json:"content"`
}

type claudeMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

// cacheControl is a cache_control the agent put at path of the request.
type cacheControl struct {
	Path  []any           `json:"path"`
	Value json.RawMessage `json:"value"`
}

// claudeAttachment is an attachment record's attachment.
type claudeAttachment struct {
	Type          string          `json:"type"`
	HookName      string          `json:"hookName"`
	HookEvent     string          `json:"hookEvent"`
	ToolUseID     string          `json:"toolUseID"`
	Content       json.RawMessage `json:"content"`
	Stdout        string          `json:"stdout"`
	Stderr        string          `json:"stderr"`
	ExitCode      *int            `json:"exitCode"`
	Command       string          `json:"command"`
	DurationMs    *float64        `json:"durationMs"`
	Message       string          `json:"message"`
	BlockingError *struct {
		BlockingError string `json:"blockingError"`
		Command       string `json:"command"`
	} `json:"blockingError"`
	AddedLines   []string `json:"addedLines"`
	SystemPrompt []string `json:"systemPrompt"`
	Text         string   `json:"text"`
}

// Record types that carry nothing the model read: read, not listed.
var claudeBookkeeping = map[string]bool{
	"queue-operation": true, "last-prompt": true, "atis-latch": true, "tools-used": true, "cost-state": true,
	"summary": true, "custom-title": true, "file-history-snapshot": true, "progress": true,
}

// Attachments that are the agent's own context (what they put before the
// model is in an exact request; a rebuilt one uses their rendered text).
var claudeContext = map[string]bool{
	"environment": true, "model": true, "deferred_tools_delta": true, "agent_listing_delta": true, "skill_listing": true,
	"date": true, "remote_session_change": true, "prompt_snapshot": true, "session_context": true,
}

// wire is a message of a request as the transcript holds it (a blob, or
// the user or assistant record a request reuses).
type wire struct {
	role    string
	content json.RawMessage
	missing string // the hash the transcript does not hold
	msgs    []capture.Message
	parsed  bool
}

// messages are w's messages as a capture of the request reads them (ar:
// capture's reader of Claude Code's requests), read once.
func (w *wire) messages(ar *capture.AgentReader) []capture.Message {
	if !w.parsed {
		w.parsed = true
		if w.missing != "" {
			w.msgs = []capture.Message{{Role: "user", Origin: capture.OriginContext,
				Content: "[not in the transcript: a message of this request, sha256 " + short(w.missing) + "]"}}
		} else {
			// a block a capture does not read is kept as it came (its Kind says which)
			w.msgs, _ = ar.ClaudeMessage(w.role, w.content)
			detach(w.msgs)
		}
	}
	return w.msgs
}

// detach gives ms texts of their own: the parser's are slices of its copy
// of the whole message, which they would keep alive (a tool call's id, a
// 24 KB output with it) long after the import let go of the message.
func detach(ms []capture.Message) {
	for i := range ms {
		m := &ms[i]
		m.Role, m.Content, m.Origin, m.Hook = strings.Clone(m.Role), strings.Clone(m.Content), strings.Clone(m.Origin), strings.Clone(m.Hook)
		m.ToolCallID, m.Kind = strings.Clone(m.ToolCallID), strings.Clone(m.Kind)
		m.AgentBefore, m.AgentAfter = strings.Clone(m.AgentBefore), strings.Clone(m.AgentAfter)
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			tc.ID, tc.Name, tc.Arguments = strings.Clone(tc.ID), strings.Clone(tc.Name), bytes.Clone(tc.Arguments)
		}
	}
}

// request is a recorded request: its conversation, and its messages as
// the transcript gives them — the first keep of its base's, then its tail.
// The whole list is made when needed and kept only for the last requests
// (a request's base is nearly always the one before it), so a long
// session does not hold calls × list length.
type request struct {
	conv  *conversation
	base  *request
	keep  int
	tail  []*entry
	tailW []*wire
	shape *shape
	// stated is the effort the conversation's first system message states
	// (per-turn control: output_config on the message; nil none)
	stated json.RawMessage
	// the whole list, while kept
	list  []*entry
	wires []*wire
}

// keptLists is how many requests keep their whole list.
const keptLists = 4

// messages are req's whole list: its entries (the system prompt's left
// out) and the messages as sent.
func (r *claudeReader) messages(req *request) ([]*entry, []*wire) {
	var chain []*request
	for x := req; x != nil && x.list == nil; x = x.base {
		chain = append(chain, x)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		x := chain[i]
		var list []*entry
		var wires []*wire
		if x.base != nil {
			k := min(x.keep, len(x.base.wires))
			list = append(list, x.base.list[:k]...)
			wires = append(wires, x.base.wires[:k]...)
		}
		x.list, x.wires = append(list, x.tail...), append(wires, x.tailW...)
		r.kept = append(r.kept, x)
	}
	for len(r.kept) > keptLists {
		if old := r.kept[0]; old != req {
			old.list, old.wires = nil, nil
		}
		r.kept = r.kept[1:]
	}
	return req.list, req.wires
}

type shape struct {
	system, tools json.RawMessage
	toolNames     []string
}

type callRef struct {
	conv *conversation
	k    int
	info int // in Session.Calls
}

// claudeReader reads a Claude Code transcript record by record.
type claudeReader struct {
	im *Importer
	b  *builder

	blobs    map[string]*wire
	shapes   map[string]*shape
	requests map[string]*request
	kept     []*request         // those holding their whole list, oldest first
	calls    map[string]callRef // by request id, and by assistant message id (rebuilt)
	systems  map[string]*entry  // the system prompt's entry, by conversation and content
	// the assistant message being written record by record (one block
	// each), for the hash of the message as sent
	assistant struct {
		id     string
		blocks []json.RawMessage
	}
	// the records read since the last request (a request's tail is among them)
	recent []*wire
	// keepRaw: the messages are kept as written (Scrub rewrites them)
	keepRaw bool

	tree
	stated map[*conversation]json.RawMessage
	exact  bool // the transcript records its requests

	firstPrompt string
	entrypoint  string
	versions    []string
}

func newClaudeReader(im *Importer) *claudeReader {
	return &claudeReader{im: im, b: im.b, blobs: map[string]*wire{}, shapes: map[string]*shape{}, requests: map[string]*request{},
		calls: map[string]callRef{}, systems: map[string]*entry{}, tree: newTree(),
		stated: map[*conversation]json.RawMessage{}}
}

func (r *claudeReader) line(n int, data []byte) {
	var rec claudeRecord
	if err := json.Unmarshal(data, &rec); err != nil || rec.Type == "" {
		if err == nil {
			r.im.unknown.add("(no type)", n, data)
			return
		}
		r.im.note(n, NoteNotJSON, notJSON(err))
		return
	}
	r.meta(n, &rec)
	switch rec.Type {
	case "user":
		r.user(n, &rec)
	case "assistant":
		r.assistantRecord(n, &rec)
	case "attachment":
		r.attachment(n, &rec, data)
	case "system":
		r.system(n, &rec, data)
	case "api-request":
		r.request(n, &rec)
	case "api-request-blob":
		if rec.Message != nil && rec.Hash != "" {
			w := &wire{role: rec.Message.Role, content: rec.Message.Content}
			r.blobs[rec.Hash] = w
			r.recent = append(r.recent, w)
		}
	case "api-request-shape":
		if rec.Shape != nil {
			r.shapes[rec.ShapeHash] = newShape(rec.Shape.System, rec.Shape.Tools)
		}
	default:
		if !claudeBookkeeping[rec.Type] {
			r.im.unknown.add(rec.Type, n, data)
		}
	}
}

// meta keeps what the session says of itself.
func (r *claudeReader) meta(n int, rec *claudeRecord) {
	s := &r.im.sess
	if s.ID == "" {
		s.ID = rec.SessionID
	}
	if s.Project == "" {
		s.Project = rec.Cwd
	}
	if rec.Entrypoint != "" && r.entrypoint == "" {
		r.entrypoint = rec.Entrypoint
	}
	if v := rec.Version; v != "" && (len(r.versions) == 0 || r.versions[len(r.versions)-1] != v) {
		if len(r.versions) > 0 {
			r.im.note(n, NoteRebuilt, fmt.Sprintf("Claude Code %s went on with the session (it was %s)", v, r.versions[len(r.versions)-1]))
		} else {
			s.Version = v
		}
		r.versions = append(r.versions, v)
	}
	widen(&s.Started, &s.Ended, rec.Timestamp)
}

func (r *claudeReader) convOf(rec *claudeRecord) *conversation {
	if rec.IsSidechain {
		return r.b.conv("sidechain:" + rec.AgentID)
	}
	return r.b.conv("main")
}

// addNode puts a record in the conversation tree.
func (r *claudeReader) addNode(rec *claudeRecord, e *entry) *node {
	nd := &node{parent: rec.ParentUUID, entry: e, at: -1, conv: r.convOf(rec)}
	if rec.UUID != "" {
		r.nodes[rec.UUID] = nd
	}
	return nd
}

func (r *claudeReader) user(n int, rec *claudeRecord) {
	if rec.Message == nil {
		r.addNode(rec, nil)
		return
	}
	content := rec.Message.Content
	if rec.IsMeta && rec.HookTextLead != "" {
		// the agent's record of hook feedback; the model reads it under the agent's preamble
		var text string
		if json.Unmarshal(content, &text) == nil {
			label, _, _ := strings.Cut(text, " hook feedback:")
			content, _ = json.Marshal(r.im.renderings().Feedback(label, text, rec.HookTextLead))
		}
	}
	w := r.index("user", rec.Message.Content)
	e := &entry{}
	if bytes.Equal(content, rec.Message.Content) {
		e.msgs = w.messages(r.im.agents)
	} else {
		e.msgs = (&wire{role: "user", content: content}).messages(r.im.agents)
	}
	r.addNode(rec, e)
	if isPrompt(rec) {
		r.im.sess.Turns++
		if r.firstPrompt == "" {
			r.firstPrompt = promptText(rec.Message.Content)
			r.im.sess.Prompt = cutRunes(r.firstPrompt, PromptMax)
		}
	}
}

// index makes a transcript message findable by the hash a request names
// it by.
func (r *claudeReader) index(role string, content json.RawMessage) *wire {
	w := &wire{role: role, content: content}
	if h, err := messageHash(role, content); err == nil {
		if _, ok := r.blobs[h]; !ok {
			r.blobs[h] = w
		}
	}
	r.recent = append(r.recent, w)
	return w
}

// merged is the message hash h names when it is several records sent as
// one message: the results of tools that ran side by side, a record each.
func (r *claudeReader) merged(h string) *wire {
	for i := range r.recent {
		var blocks []json.RawMessage
		for j := i; j < len(r.recent); j++ {
			w := r.recent[j]
			bs, ok := toolResults(w.content)
			if w.role != "user" || !ok {
				break
			}
			blocks = append(blocks, bs...)
			if j > i {
				merged := joinList(blocks)
				if mh, err := messageHash("user", merged); err == nil && mh == h {
					return &wire{role: "user", content: merged}
				}
			}
		}
	}
	return nil
}

// joinList is a JSON list of items as written.
func joinList(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// forget lets go of what was read of the messages no request still needs
// whole (their text is parsed; only a request's body needs it as written).
func (r *claudeReader) forget() {
	if r.im.opts.OnRequest != nil || r.keepRaw {
		return
	}
	for _, w := range r.recent {
		w.messages(r.im.agents)
		w.content = nil
	}
}

func (r *claudeReader) assistantRecord(n int, rec *claudeRecord) {
	if rec.Message == nil {
		r.addNode(rec, nil)
		return
	}
	m := rec.Message
	if r.im.sess.Model == "" && m.Model != "" && m.Model != "<synthetic>" {
		r.im.sess.Model = m.Model
	}
	aw := r.index("assistant", m.Content)
	blocks := elements(m.Content)
	continued := m.ID != "" && m.ID == r.assistant.id
	if continued {
		r.assistant.blocks = append(r.assistant.blocks, blocks...)
		r.index("assistant", joinList(r.assistant.blocks))
	} else {
		r.assistant.id, r.assistant.blocks = m.ID, blocks
	}
	parent := r.nodes[rec.ParentUUID]
	if continued && parent != nil && parent.msgID == m.ID {
		// one more block of the message the parent record began: one message as sent
		first := parent
		for first.entry == nil && r.nodes[first.parent] != nil && r.nodes[first.parent].msgID == m.ID {
			first = r.nodes[first.parent]
		}
		nd := r.addNode(rec, nil)
		nd.msgID = m.ID
		if first.entry != nil && first.entry.ids == nil {
			first.entry.msgs = (&wire{role: "assistant", content: joinList(r.assistant.blocks)}).messages(r.im.agents)
		}
	} else {
		nd := r.addNode(rec, &entry{msgs: aw.messages(r.im.agents)})
		nd.msgID = m.ID
	}
	// the answer: of the recorded request it names, else of a call rebuilt from the records
	ref, ok := r.calls[rec.RequestRef]
	if !ok || rec.RequestRef == "" {
		ref, ok = r.calls["msg:"+m.ID]
	}
	if !ok {
		if r.exact && rec.RequestRef != "" {
			r.im.note(n, NoteMissing, "the request this answer is for is not in the transcript; it is rebuilt from the records")
		}
		ref = r.rebuiltCall(n, rec)
	}
	content, calls := answerOf(m.Content)
	errText := ""
	if rec.IsAPIErrorMessage {
		errText, content, calls = content, "", nil
	}
	r.b.answer(ref.conv, ref.k, content, calls, errText)
}

// rebuiltCall is a model call whose request the transcript does not hold:
// its list is the records on the path to the answer's parent.
func (r *claudeReader) rebuiltCall(n int, rec *claudeRecord) callRef {
	cv := r.convOf(rec)
	list := r.chain(cv, rec.ParentUUID)
	r.join(list)
	if len(r.im.sess.Calls) == 0 || r.im.sess.Calls[len(r.im.sess.Calls)-1].Exact || !r.im.noted(NoteRebuilt) {
		r.im.note(0, NoteRebuilt, "requests rebuilt from the transcript's records (this Claude Code does not record them): "+
			"the system prompt, the tools and the agent's own context may differ from what was sent")
	}
	k := r.b.call(cv, list, rec.Message.Model)
	ref := callRef{conv: cv, k: k, info: len(r.im.sess.Calls)}
	r.im.sess.Calls = append(r.im.sess.Calls, CallInfo{Line: n, Model: rec.Message.Model, Tools: []string{}, conv: cv, k: k})
	r.calls["msg:"+rec.Message.ID] = ref
	return ref
}

// join ends each but the last of adjacent hook messages of one event as
// the agent joins them in one message (before they are first sent).
func (r *claudeReader) join(list []*entry) {
	for i := 0; i+1 < len(list); i++ {
		a, b := list[i], list[i+1]
		if a.ids != nil || a.hook == nil || b.hook == nil || a.hook.label != b.hook.label || len(a.msgs) == 0 || len(b.msgs) == 0 {
			continue
		}
		last := &a.msgs[len(a.msgs)-1]
		if sep := r.im.renderings().Joined(a.hook.label, last.Role); sep != "" && last.Role == b.msgs[0].Role && !strings.HasSuffix(last.Content, sep) {
			last.Content += sep
		}
	}
}

func (r *claudeReader) attachment(n int, rec *claudeRecord, data []byte) {
	var a claudeAttachment
	if err := json.Unmarshal(rec.Attachment, &a); err != nil {
		r.im.unknown.add("attachment", n, data)
		r.addNode(rec, nil)
		return
	}
	cv := r.convOf(rec)
	var h *hookRun
	if strings.HasPrefix(a.Type, "hook_") {
		h = r.hook(n, cv, &a)
	} else if !claudeContext[a.Type] && len(rec.Rendered) == 0 {
		r.im.unknown.add("attachment/"+a.Type, n, data)
	}
	if a.Type == "prompt_snapshot" && len(a.SystemPrompt) > 0 && !r.exact {
		r.snapshot(cv, a.SystemPrompt)
	}
	e := &entry{hook: h}
	switch {
	case len(rec.Rendered) > 0:
		for _, p := range rec.Rendered {
			role, text := rec.RenderedRole, p.Content
			if role == "" {
				role = "user"
			}
			if role == "system" {
				// a system message's paragraph: sent without the wrapper
				text = strings.TrimSuffix(strings.TrimPrefix(text, "<system-reminder>\n"), "\n</system-reminder>")
			}
			e.msgs = append(e.msgs, r.textMessages(role, text)...)
		}
	case h != nil:
		e.msgs = r.hookMessages(&a, h)
	default:
		e.msgs = contextMessages(&a)
	}
	if len(e.msgs) == 0 {
		e = nil
	}
	r.addNode(rec, e)
}

// snapshot gives the main conversation's rebuilt requests the system
// prompt the agent recorded.
func (r *claudeReader) snapshot(cv *conversation, prompt []string) {
	var ms []capture.Message
	for _, p := range prompt {
		ms = append(ms, capture.Message{Role: "system", Content: p, Origin: capture.OriginSystem})
	}
	if len(r.chains[cv]) == 0 {
		r.nodes["\x00system"] = &node{entry: &entry{msgs: ms}, at: -1, conv: cv}
	}
}

// textMessages is a text the agent sent with role, as a capture reads it.
func (r *claudeReader) textMessages(role, text string) []capture.Message {
	raw, _ := json.Marshal(text)
	return (&wire{role: role, content: raw}).messages(r.im.agents)
}

// contextMessages are the agent's own context an attachment adds to a
// rebuilt request, where the record does not hold its rendered text.
func contextMessages(a *claudeAttachment) []capture.Message {
	var text string
	switch a.Type {
	case "skill_listing":
		_ = json.Unmarshal(a.Content, &text)
		text = "The following skills are available for use with the Skill tool:\n\n" + text
	case "agent_listing_delta":
		text = "Available agent types for the Agent tool:\n" + strings.Join(a.AddedLines, "\n")
	case "model":
		text = a.Text
	default:
		return nil
	}
	if text == "" {
		return nil
	}
	return []capture.Message{{Role: "system", Content: text, Origin: capture.OriginContext}}
}

// hookMessages are what a hook record put before the model, in the words
// of the agent's version (a rebuilt request).
func (r *claudeReader) hookMessages(a *claudeAttachment, h *hookRun) []capture.Message {
	rd := r.im.renderings()
	var out []capture.Message
	add := func(kind, text, command string) {
		for _, m := range rd.Hook(kind, h.label, text, command) {
			out = append(out, r.textMessages(m.Role, m.Content)...)
		}
	}
	switch a.Type {
	case "hook_success":
		var text string
		if json.Unmarshal(a.Content, &text) == nil && text != "" && (a.HookEvent == "SessionStart" || a.HookEvent == "UserPromptSubmit") {
			add(OutputSuccess, text, a.Command)
		}
	case "hook_additional_context":
		for _, t := range stringsOf(a.Content) {
			add(OutputAdditionalContext, t, a.Command)
		}
	case "hook_blocking_error":
		if a.BlockingError != nil {
			add(OutputBlockingError, a.BlockingError.BlockingError, a.BlockingError.Command)
		}
	}
	return out
}

// hook reads a hook record: a new invocation, or more of one already read
// (Claude Code writes a hook's context after its success record).
func (r *claudeReader) hook(n int, cv *conversation, a *claudeAttachment) *hookRun {
	label := a.HookName
	if label == "" {
		label = a.HookEvent
	}
	event := a.HookEvent
	if event == "" {
		event, _, _ = strings.Cut(label, ":")
	}
	texts := stringsOf(a.Content)
	if a.Type == "hook_additional_context" {
		for i := len(cv.pending) - 1; i >= 0; i-- {
			if h := cv.pending[i]; h.label == label && h.toolUseID == a.ToolUseID && containsAll(h.texts, texts) {
				return h
			}
		}
	}
	command := a.Command
	if a.BlockingError != nil && command == "" {
		command = a.BlockingError.Command
	}
	h := newHookRun(event, label, command, n)
	h.toolUseID = a.ToolUseID
	c := &h.call
	if a.DurationMs != nil {
		c.DurationMS = *a.DurationMs
	}
	c.ExitCode, c.Stderr = a.ExitCode, a.Stderr
	if out := strings.TrimSpace(a.Stdout); strings.HasPrefix(out, "{") && json.Valid([]byte(out)) {
		c.Output = json.RawMessage(out)
		if ctx := additionalContext(out); ctx != "" {
			texts = append(texts, ctx)
		}
	} else {
		c.OutputText = out
	}
	switch a.Type {
	case "hook_success", "hook_additional_context":
		c.Outcome = engine.OutcomeOK
	case "hook_non_blocking_error":
		c.Outcome = engine.OutcomeError
		c.Error = "a non-blocking error: Claude Code showed stderr to the user and went on (only exit 2 blocks)"
		if a.ExitCode != nil {
			c.Error = fmt.Sprintf("exit %d: %s", *a.ExitCode, c.Error)
		}
	case "hook_blocking_error":
		c.Outcome = engine.OutcomeBlocked
		if a.BlockingError != nil {
			texts = append(texts, a.BlockingError.BlockingError)
		}
	case "hook_stopped_continuation":
		c.Outcome, c.Error = engine.OutcomeStopped, a.Message
	case "hook_cancelled":
		c.Outcome, c.Error = engine.OutcomeError, "cancelled"
	case "hook_error_during_execution":
		c.Outcome, c.Error = engine.OutcomeError, firstOf(a.Message, strings.Join(texts, "\n"), "it failed to run")
		texts = nil
	case "hook_system_message":
		c.Outcome, c.Notice = engine.OutcomeOK, strings.Join(texts, "\n")
		texts = nil
	case "hook_permission_decision":
		c.Outcome = engine.OutcomeDenied
	default:
		c.Outcome = engine.OutcomeOK
		c.Warnings = append(c.Warnings, "a hook record of type "+a.Type+" the importer does not know: shown as it is")
	}
	h.texts = texts
	return r.b.fire(cv, h)
}

// system reads a system record: the Stop hooks' summary, else nothing the
// model read.
func (r *claudeReader) system(n int, rec *claudeRecord, data []byte) {
	r.addNode(rec, nil)
	switch rec.Subtype {
	case "stop_hook_summary":
	case "compact_boundary", "api_error", "informational", "turn_duration", "local_command", "away_summary":
		return
	default:
		r.im.unknown.add("system/"+rec.Subtype, n, data)
		return
	}
	cv := r.convOf(rec)
	errs := slices.Clone(rec.HookErrors)
	for i, info := range rec.HookInfos {
		var h *hookRun
		for _, p := range cv.pending {
			if p.toolUseID == rec.ToolUseID && p.command == info.Command && sameLabel(p.label, "Stop") {
				h = p
			}
		}
		if h == nil {
			h = newHookRun("Stop", "Stop", info.Command, n)
			h.toolUseID = rec.ToolUseID
			h.call.Outcome = engine.OutcomeOK
			r.b.fire(cv, h)
		}
		if info.DurationMs != nil {
			h.call.DurationMS = *info.DurationMs
		}
		// its errors: those naming its command ("[cmd]: stderr"), else all
		// of them when it is the only hook
		for j := 0; j < len(errs); j++ {
			if e := errs[j]; strings.HasPrefix(e, "["+info.Command+"]: ") || (len(rec.HookInfos) == 1 && i == 0) {
				if !slices.Contains(h.texts, e) {
					h.texts = append(h.texts, e)
				}
				if h.call.Outcome == engine.OutcomeOK {
					h.call.Outcome = engine.OutcomeBlocked
				}
				errs = slices.Delete(errs, j, j+1)
				j--
			}
		}
		if rec.PreventedContinuation {
			h.call.Outcome, h.call.Error = engine.OutcomeStopped, firstOf(rec.StopReason, "it stopped the session")
		}
	}
}

// request reads a recorded request: its list is the first Keep messages of
// the request it names as its base, then the messages of its tail.
func (r *claudeReader) request(n int, rec *claudeRecord) {
	r.exact = true
	req := &request{keep: rec.Keep}
	info := CallInfo{Exact: true, Line: n, RequestID: rec.ID, Params: rec.Params, Tools: []string{}}
	if rec.Base != "" {
		if base, ok := r.requests[rec.Base]; ok {
			req.conv, req.base = base.conv, base
		} else {
			r.im.note(n, NoteMissing, fmt.Sprintf("the request it continues (%s) is not in the transcript: its first %d messages are missing", short(rec.Base), rec.Keep))
			info.Missing = append(info.Missing, fmt.Sprintf("the first %d messages", rec.Keep))
		}
	}
	if req.conv == nil {
		req.conv = r.b.conv(conversationKey(rec.QuerySource))
	}
	cv := req.conv
	for _, h := range rec.Tail {
		w, ok := r.blobs[h]
		if !ok {
			w = r.merged(h)
		}
		if w == nil {
			w = &wire{role: "user", missing: h}
			at := len(req.tailW) + 1 + min(rec.Keep, r.baseLen(req))
			r.im.note(n, NoteMissingBlob, fmt.Sprintf("message %d of the request (sha256 %s) is not in the transcript; shown as a placeholder", at, short(h)))
			info.Missing = append(info.Missing, fmt.Sprintf("message %d (sha256 %s)", at, short(h)))
		}
		req.tailW = append(req.tailW, w)
		req.tail = append(req.tail, &entry{msgs: w.messages(r.im.agents)})
	}
	r.forget()
	r.recent = r.recent[:0]
	req.shape = r.shapes[rec.ShapeHash]
	if req.shape == nil {
		r.im.note(n, NoteMissing, fmt.Sprintf("the request's system prompt and tools (shape %s) are not in the transcript", short(rec.ShapeHash)))
		info.Missing = append(info.Missing, "the system prompt and tools")
	} else {
		info.Tools = req.shape.toolNames
	}
	var params struct {
		Model        string          `json:"model"`
		Betas        []string        `json:"betas"`
		OutputConfig json.RawMessage `json:"output_config"`
	}
	_ = json.Unmarshal(rec.Params, &params)
	info.Model = params.Model
	if slices.ContainsFunc(params.Betas, func(b string) bool { return strings.HasPrefix(b, "per-turn-control") }) && len(params.OutputConfig) > 0 {
		// Claude Code states the effort on the list's first system message
		// and states a change where the turn changed it, which the
		// transcript does not record
		if first, ok := r.stated[cv]; ok {
			req.stated = first
			if !bytes.Equal(first, params.OutputConfig) {
				r.im.note(n, NoteMissing, "the effort changed here: where Claude Code states the change in the list is not in the transcript")
			}
		} else {
			req.stated = params.OutputConfig
			r.stated[cv] = req.stated
		}
	}
	if r.im.sess.Model == "" {
		r.im.sess.Model = params.Model
	}
	r.requests[rec.ID] = req
	list, _ := r.messages(req)
	present := make([]*entry, 0, len(list)+1)
	if sys := r.systemEntry(cv, req.shape); sys != nil {
		present = append(present, sys)
	}
	present = append(present, list...)
	k := r.b.call(cv, present, params.Model)
	r.calls[rec.ID] = callRef{conv: cv, k: k, info: len(r.im.sess.Calls)}
	if on := r.im.opts.OnRequest; on != nil {
		if body, err := r.body(rec, req); err == nil {
			on(len(r.im.sess.Calls), body)
		}
	}
	info.conv, info.k = cv, k
	r.im.sess.Calls = append(r.im.sess.Calls, info)
}

// baseLen is how many messages req's base sent.
func (r *claudeReader) baseLen(req *request) int {
	if req.base == nil {
		return 0
	}
	_, w := r.messages(req.base)
	return len(w)
}

// conversationKey is the conversation a request with no base starts: the
// main one (the agent's turns, its -p run) or a side request's own.
func conversationKey(querySource string) string {
	switch {
	case querySource == "", querySource == "sdk", strings.HasPrefix(querySource, "repl_main_thread"):
		return "main"
	}
	return "side:" + querySource
}

// systemEntry is the system prompt a shape gives cv's requests, one entry
// while it does not change (nil: the shape is missing).
func (r *claudeReader) systemEntry(cv *conversation, sh *shape) *entry {
	if sh == nil {
		return nil
	}
	billing := r.billing()
	sum := sha256.Sum256(append([]byte(billing+"\x00"), sh.system...))
	key := fmt.Sprintf("%p/%x", cv, sum[:8])
	if e, ok := r.systems[key]; ok {
		return e
	}
	ms := capture.AnthropicSystem(sh.system)
	if billing != "" {
		ms = append([]capture.Message{{Role: "system", Content: billing, Origin: capture.OriginSystem}}, ms...)
	}
	e := &entry{msgs: ms}
	r.systems[key] = e
	return e
}

// billing is the first block of the system prompt Claude Code sends and
// does not record: its version, a fingerprint of the first prompt and its
// entrypoint (measured on 2.1.197 and 2.1.332 against a local endpoint;
// against Anthropic's own API it carries more, which no transcript keeps).
func (r *claudeReader) billing() string {
	v := r.im.sess.Version
	if v == "" || r.entrypoint == "" {
		return ""
	}
	chars := make([]byte, 0, 3)
	text := []rune(r.firstPrompt)
	for _, i := range []int{4, 7, 20} {
		if i < len(text) {
			chars = append(chars, string(text[i])...)
		} else {
			chars = append(chars, '0')
		}
	}
	sum := sha256.Sum256([]byte("59cf53e54c78" + string(chars) + v))
	return fmt.Sprintf("x-anthropic-billing-header: cc_version=%s.%s; cc_entrypoint=%s;", v, hex.EncodeToString(sum[:])[:3], r.entrypoint)
}

func newShape(system, tools json.RawMessage) *shape {
	sh := &shape{system: system, tools: tools, toolNames: []string{}}
	var ts []struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(tools, &ts)
	for _, t := range ts {
		sh.toolNames = append(sh.toolNames, t.Name)
	}
	return sh
}

func newHookRun(event, label, command string, line int) *hookRun {
	name := label
	if command != "" {
		name = (&claudehook.Hook{Type: claudehook.TypeCommand, Command: command}).Name()
	}
	point, _ := claudehook.PointOf(claudehook.Event(event))
	return &hookRun{label: label, command: command, call: engine.HookCall{Event: label, Point: point, Hook: name,
		Source: fmt.Sprintf("transcript line %d", line)}}
}

// hookFromText is a hook known only by the words the agent put before the
// model (a PreToolUse block's reason in the tool result): what the words
// tell of it, the rest unknown.
func hookFromText(m capture.Message) *hookRun {
	event, _, _ := strings.Cut(m.Hook, ":")
	command := ""
	if _, rest, ok := strings.Cut(m.Content, " hook error: ["); ok {
		command, _, _ = strings.Cut(rest, "]: ")
	} else if _, rest, ok := strings.Cut(m.Content, " hook feedback:\n["); ok {
		command, _, _ = strings.Cut(rest, "]: ")
	} else if _, rest, ok := strings.Cut(m.Content, ` blocking error from command: "`); ok {
		command, _, _ = strings.Cut(rest, `": `)
	}
	h := newHookRun(event, m.Hook, command, 0)
	h.call.Source = "the model's request"
	h.call.Outcome = engine.OutcomeOK
	switch {
	case m.Role == "tool", strings.Contains(m.Content, " hook blocking error"), strings.Contains(m.Content, " hook feedback:"):
		h.call.Outcome = engine.OutcomeBlocked
	}
	h.call.Warnings = []string{"the transcript records only the words this hook put before the model: its run (duration, exit, output) is not known"}
	h.texts = []string{m.Content}
	return h
}
