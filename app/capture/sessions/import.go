package sessions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
)

// Options configure an import.
type Options struct {
	// Agent is the CLI that wrote the file ("": told from its first record).
	Agent Agent
	// Profiles are the rendering profiles hook output is worded by where a
	// request is rebuilt (nil: the bundled ones); the agent version's, else
	// the nearest version's, which a note names.
	Profiles *profile.Catalog
	// Progress, if set, is told how many bytes of how many were read.
	Progress func(read, total int64)
	// OnRequest, if set, is given each recorded request's body as the
	// agent sent it, rebuilt from the transcript (call: its place among
	// the session's calls, Session.Calls).
	OnRequest func(call int, body []byte)
}

// lineReader reads one agent's records, line by line.
type lineReader interface {
	line(n int, data []byte)
}

// Importer reads a transcript as it is written: Write gives it bytes, each
// complete line is read at once, and Session and Trace tell what is read
// so far. It never reads a line twice, so a file that grows is imported
// by writing it only what is new.
type Importer struct {
	opts    Options
	catalog *profile.Catalog
	// agents reads a request's messages as capture reads them
	agents  *capture.AgentReader
	b       *builder
	r       lineReader
	sess    Session
	unknown unknowns
	notes   []Note
	rd      Renderings
	partial []byte
	line    int
	// before the agent is told: the lines read (at most detectLines), and
	// the first that is no agent's record
	early  []earlyLine
	format *FormatError
	// mtime is the file's modification time: the session's when no record
	// says when it was written
	mtime time.Time
}

type earlyLine struct {
	n    int
	data []byte
}

// NewImporter starts an import of file (the name the session shows).
func NewImporter(file string, opts Options) *Importer {
	catalog := opts.Profiles
	if catalog == nil {
		catalog = profile.NewCatalog("")
	}
	im := &Importer{opts: opts, catalog: catalog, agents: capture.NewAgentReader(catalog), b: newBuilder(), unknown: unknowns{}}
	im.sess = Session{Agent: opts.Agent, File: file, Calls: []CallInfo{}, Notes: []Note{}, Unknown: []Unknown{}}
	return im
}

// Write reads the complete lines in p (with what an earlier Write left
// over); an incomplete last line waits for the rest.
func (im *Importer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			im.partial = append(im.partial, p...)
			break
		}
		line := p[:i]
		if len(im.partial) > 0 {
			line = append(im.partial, line...)
			im.partial = im.partial[:0]
		}
		im.sess.Bytes += int64(len(line)) + 1
		im.read(line)
		p = p[i+1:]
	}
	return n, nil
}

// Finish reads a last line written without its newline, when it is
// complete; else it stays, and Session says it is incomplete.
func (im *Importer) Finish() {
	if len(im.partial) > 0 && json.Valid(im.partial) {
		line := im.partial
		im.partial = nil
		im.sess.Bytes += int64(len(line))
		im.read(line)
	}
}

// formatError says the lines read are no agent's log, by the first.
func (im *Importer) formatError() *FormatError {
	if im.format != nil {
		return im.format
	}
	if len(im.early) == 0 {
		return nil
	}
	_, why := detect(im.early[0].data)
	return &FormatError{File: im.sess.File, Line: im.early[0].n, Reason: why}
}

// Offset is how far the file is read (whole lines).
func (im *Importer) Offset() int64 { return im.sess.Bytes }

func (im *Importer) read(line []byte) {
	im.line++
	im.sess.Lines = im.line
	line = bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if im.r == nil && !im.start(line) {
		return
	}
	im.r.line(im.line, line)
}

// start picks the reader from the agent given, else from the first record
// an agent's log has (detect). The lines before it wait, and are read by
// it; if none of the first detectLines is one, the file is not a session
// log (Trace says so).
func (im *Importer) start(line []byte) bool {
	if im.format != nil {
		return false
	}
	agent := im.sess.Agent
	if agent == "" {
		if agent, _ = detect(line); agent == "" {
			im.early = append(im.early, earlyLine{n: im.line, data: bytes.Clone(line)})
			if len(im.early) == detectLines {
				im.format, im.early = im.formatError(), nil
			}
			return false
		}
		im.sess.Agent = agent
	}
	im.b.system = string(agent)
	switch agent {
	case Codex:
		im.r = newCodexReader(im)
	case GeminiCLI:
		im.r = newGeminiReader(im)
	case QwenCode:
		im.r = newQwenReader(im)
	case CopilotCLI:
		im.r = newCopilotReader(im)
	default:
		im.r = newClaudeReader(im)
	}
	for _, e := range im.early {
		im.r.line(e.n, e.data)
	}
	im.early = nil
	return true
}

func (im *Importer) renderings() Renderings {
	if im.rd == nil {
		rd, p, exact := renderingsFor(im.catalog, im.sess.Agent, im.sess.Version)
		switch {
		case p == nil:
			im.note(0, NoteRebuilt, "no rendering profile of "+string(im.sess.Agent)+": hooks' words are not added to the rebuilt requests")
		case !exact:
			im.note(0, NoteRebuilt, "no rendering profile of "+Backend(im.sess)+": hooks' words in the rebuilt requests are worded as "+p.Ref()+" words them (hookctl calibrate learns this version's)")
		}
		im.rd = rd
	}
	return im.rd
}

func (im *Importer) note(line int, kind, msg string) {
	im.notes = append(im.notes, Note{Line: line, Kind: kind, Message: msg})
}

func (im *Importer) noted(kind string) bool {
	return slices.ContainsFunc(im.notes, func(n Note) bool { return n.Kind == kind })
}

// Session is what is read so far.
func (im *Importer) Session() Session {
	s := im.sess
	s.Calls = slices.Clone(s.Calls)
	first := im.b.firstCalls()
	for i := range s.Calls {
		if c := &s.Calls[i]; c.conv != nil {
			c.Call = first[c.conv] + c.k
		}
	}
	s.Notes = append([]Note{}, im.notes...)
	if len(im.partial) > 0 {
		s.Notes = append(s.Notes, Note{Line: im.line + 1, Kind: NoteTruncated,
			Message: fmt.Sprintf("the last line is incomplete (%d bytes so far): the agent may still be writing it; it is read once it ends", len(im.partial))})
	}
	if s.Started.IsZero() && !im.mtime.IsZero() && im.r != nil {
		s.Started, s.Ended = im.mtime, im.mtime
		s.Notes = append(s.Notes, Note{Kind: NoteNoTime, Message: "no record says when it was written: the session's time is the file's last change (" +
			im.mtime.UTC().Format(time.RFC3339) + ")"})
	}
	s.Unknown = im.unknown.list()
	s.Hooks = len(im.b.hooks) // with those known only by their words
	return s
}

// ErrEmpty is returned for a transcript with no model call and no hook yet.
var ErrEmpty = errors.New("the session has no model call and no hook yet")

// Trace is the session read so far as a trace (each conversation a request).
func (im *Importer) Trace() (*engine.Trace, error) {
	if im.r == nil {
		if fe := im.formatError(); fe != nil {
			return nil, fe
		}
	}
	s := im.Session()
	rec := im.b.record(Name(s))
	if len(rec.Steps) == 0 {
		return nil, ErrEmpty
	}
	if s.Version != "" {
		// the version whose renderings the run shows: the one that wrote it
		rec.Agent = &engine.Agent{Agent: string(s.Agent), Version: s.Version, By: "transcript"}
	}
	return engine.FromRecord(rec)
}

// Name names an imported session: "session: " and the first words of its
// first prompt, else its id.
func Name(s Session) string {
	if s.Prompt == "" {
		return "session " + short(s.ID)
	}
	return "session: " + cutRunes(s.Prompt, 48)
}

// ImportFile reads a whole transcript, telling opts.Progress as it goes.
func ImportFile(ctx context.Context, path string, opts Options) (*Importer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	im := NewImporter(path, opts)
	if err := im.ReadFrom(ctx, f); err != nil {
		return nil, err
	}
	im.Finish()
	return im, nil
}

// chunk is how much is read at a time.
const chunk = 1 << 20

// ReadFrom reads r to its end (what is there now), telling opts.Progress.
func (im *Importer) ReadFrom(ctx context.Context, r io.Reader) error {
	var total int64 = -1
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			total, im.mtime = st.Size(), st.ModTime()
		}
	}
	buf := make([]byte, chunk)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = im.Write(buf[:n])
			if im.opts.Progress != nil {
				im.opts.Progress(im.sess.Bytes+int64(len(im.partial)), total)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", im.sess.File, err)
		}
	}
}
