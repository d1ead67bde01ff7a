package prochook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hookstudio/app/hooks/process"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// MaxLine bounds one JSON-RPC line read from a hook (PicoClaw reads 1 MiB;
// a simulator's message lists can be larger, so allow more).
const MaxLine = 16 << 20

// maxStderr bounds the stderr kept between two requests.
const maxStderr = 64 << 10

// readerGrace is how long the readers may drain a process's pipes after it
// exited before the pipes are closed under them (a grandchild that escaped
// the process group could otherwise hold them open forever).
const readerGrace = time.Second

// rpcMessage is any JSON-RPC 2.0 message a hook writes.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) String() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// answer is a line delivered to a waiting request.
type answer struct {
	line  []byte
	msg   rpcMessage
	isRPC bool  // line parsed as JSON
	size  int64 // a line over MaxLine: its whole length (line holds its start)
}

// proc is one running hook process: a reader goroutine dispatches the
// lines it writes to the requests waiting for them (by id), a second one
// keeps its stderr, a third waits for it to exit. All three end once the
// process is gone (stop kills its process group).
type proc struct {
	name    string
	cmd     *exec.Cmd
	stdin   *os.File
	wmu     sync.Mutex // one write at a time
	started time.Time

	mu      sync.Mutex
	pending map[int64]chan answer
	order   []int64 // pending ids, oldest first (a non-JSON line goes to the oldest)
	nextID  int64
	strays  []string // lines no waiter took, for the next exchange's warnings
	stderr  []byte
	trunc   bool

	done     chan struct{} // closed when the process exited
	readDone chan struct{} // closed when stdout reached EOF (or was closed)
	errDone  chan struct{}
	waitErr  error
}

// spawn starts argv in dir with env, in its own process group.
func spawn(name string, argv []string, dir string, env []string) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	process.OwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	closeAll(inR, outW, errW) // the child's ends
	p := &proc{name: name, cmd: cmd, stdin: inW, started: time.Now(), pending: map[int64]chan answer{},
		done: make(chan struct{}), readDone: make(chan struct{}), errDone: make(chan struct{})}
	go p.read(outR)
	go p.readStderr(errR)
	go p.wait(outR, errR)
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// wait reaps the process, then gives the readers readerGrace to drain
// before closing the pipes under them.
func (p *proc) wait(outR, errR *os.File) {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.waitErr = err
	p.mu.Unlock()
	close(p.done)
	t := time.NewTimer(readerGrace)
	defer t.Stop()
	for _, c := range []chan struct{}{p.readDone, p.errDone} {
		select {
		case <-c:
		case <-t.C:
		}
	}
	outR.Close()
	errR.Close()
}

func (p *proc) read(r io.Reader) {
	defer close(p.readDone)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, size, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			p.dispatch(line, size)
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its end. A line over MaxLine is not
// kept: it returns the line's first bytes and its whole size (0 for a line
// within the limit), reading the rest without holding it.
func readLine(br *bufio.Reader) ([]byte, int64, error) {
	var buf []byte
	var size int64
	for {
		chunk, err := br.ReadSlice('\n')
		size += int64(len(chunk))
		switch {
		case size <= MaxLine:
			buf = append(buf, chunk...)
		case len(buf) > tooLongHead:
			buf = buf[:tooLongHead]
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		line := bytes.TrimRight(buf, "\r\n")
		if size > MaxLine {
			return line, size - int64(len(chunk)-len(bytes.TrimRight(chunk, "\r\n"))), err
		}
		return line, 0, err
	}
}

// tooLongHead is how much of a line over MaxLine the trace keeps.
const tooLongHead = 4 << 10

// dispatch hands a line to the request it answers. A line that is not
// JSON goes to the oldest waiting request (a request-answer protocol has
// only one in flight here); anything else nobody waits for is kept as a
// stray for the next exchange's warnings.
func (p *proc) dispatch(line []byte, size int64) {
	a := answer{line: line, size: size}
	a.isRPC = size == 0 && json.Unmarshal(line, &a.msg) == nil
	p.mu.Lock()
	defer p.mu.Unlock()
	var id int64 = -1
	switch {
	case !a.isRPC:
		if len(p.order) > 0 {
			id = p.order[0]
		}
	case len(a.msg.ID) > 0 && string(a.msg.ID) != "null":
		if n, err := strconv.ParseInt(string(a.msg.ID), 10, 64); err == nil {
			if _, ok := p.pending[n]; ok {
				id = n
			}
		}
	case a.msg.Error != nil && len(p.order) > 0:
		id = p.order[0] // an error answer with id null: the request could not be read
	}
	if id < 0 {
		p.strays = append(p.strays, describeStray(a))
		return
	}
	ch := p.pending[id]
	p.forget(id)
	ch <- a
}

func describeStray(a answer) string {
	switch {
	case a.size > 0:
		return fmt.Sprintf("the hook wrote a line of %s while no request was waiting, over the %d MiB a line may have; ignored: %s…", mib(a.size), MaxLine>>20, clip(a.line, 200))
	case !a.isRPC:
		return fmt.Sprintf("the hook wrote a line that is not JSON while no request was waiting; ignored: %s", clip(a.line, 200))
	case a.msg.Method != "" && len(a.msg.ID) == 0:
		return fmt.Sprintf("the hook sent a notification %q; PicoClaw ignores messages it did not ask for", a.msg.Method)
	case len(a.msg.ID) > 0:
		return fmt.Sprintf("answer with id %s matches no waiting request (late, or a wrong id); ignored: %s", a.msg.ID, clip(a.line, 200))
	}
	return fmt.Sprintf("a message without id was ignored: %s", clip(a.line, 200))
}

func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

func (p *proc) forget(id int64) {
	delete(p.pending, id)
	for i, v := range p.order {
		if v == id {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
}

func (p *proc) readStderr(r io.Reader) {
	defer close(p.errDone)
	buf := make([]byte, 8<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.stderr = append(p.stderr, buf[:n]...)
			if over := len(p.stderr) - maxStderr; over > 0 {
				p.stderr = append(p.stderr[:0], p.stderr[over:]...)
				p.trunc = true
			}
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// takeStderr returns what the process wrote to stderr since the last take.
func (p *proc) takeStderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := string(p.stderr)
	if p.trunc {
		s = "…(earlier output dropped)\n" + s
	}
	p.stderr, p.trunc = p.stderr[:0], false
	return s
}

func (p *proc) takeStrays() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.strays
	p.strays = nil
	return s
}

// exited reports whether the process is gone.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitStatus describes how the process ended (after done).
func (p *proc) exitStatus() (code *int, text string) {
	p.mu.Lock()
	err := p.waitErr
	p.mu.Unlock()
	if c := p.cmd.ProcessState.ExitCode(); c >= 0 {
		code = &c
	}
	if err == nil {
		return code, "exit status 0"
	}
	return code, err.Error()
}

// exchange is one message sent and, for a request, its answer.
type exchange struct {
	request []byte // the line sent, without its newline
	answer  []byte // the line received ("" none)
	msg     *rpcMessage
	kind    failure
	err     string // the failure in words
	dur     time.Duration
	strays  []string
}

type failure int

const (
	okay failure = iota
	failTimeout
	failRPC     // a JSON-RPC error answer
	failNotJSON // the answer line is not JSON
	failTooLong // the answer line is over MaxLine
	failExit    // the process exited (or its stdin broke)
	failWrite   // the message could not be written in time
	failCancel  // the run was cancelled
	failClosed  // the hook closed its stdin but runs on
)

// request builds one JSON-RPC line; id < 0 makes a notification.
func request(id int64, method string, params any) ([]byte, error) {
	type req struct {
		JSONRPC string `json:"jsonrpc"`
		ID      *int64 `json:"id,omitempty"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}
	r := req{JSONRPC: "2.0", Method: method, Params: params}
	if id >= 0 {
		r.ID = &id
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	return b, nil
}

// write sends one line, giving up after timeout (a hook that stopped
// reading its stdin must not block the run).
func (p *proc) write(line []byte, timeout time.Duration) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_ = p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	_, err := p.stdin.Write(buf)
	return err
}

// call sends a request and waits for its answer, the timeout, the
// process's exit or ctx, whichever comes first.
func (p *proc) call(ctx context.Context, method string, params any, timeout time.Duration) exchange {
	start := time.Now()
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	ch := make(chan answer, 1)
	p.pending[id] = ch
	p.order = append(p.order, id)
	p.mu.Unlock()
	x := exchange{}
	finish := func() exchange {
		p.mu.Lock()
		p.forget(id)
		p.mu.Unlock()
		x.dur = time.Since(start)
		x.strays = p.takeStrays()
		return x
	}
	line, err := request(id, method, params)
	if err != nil {
		x.kind, x.err = failWrite, err.Error()
		return finish()
	}
	x.request = line
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	if err := p.write(line, timeout); err != nil {
		if p.exited() || errors.Is(err, os.ErrClosed) || process.IsBrokenPipe(err) {
			// Usually the process is gone; one that only closed its stdin
			// is reported as such instead of being waited for.
			select {
			case <-p.done:
				_, st := p.exitStatus()
				x.kind, x.err = failExit, fmt.Sprintf("the process exited (%s) before %s could be sent", st, method)
			case <-time.After(200 * time.Millisecond):
				x.kind, x.err = failClosed, fmt.Sprintf("%s could not be sent: the hook closed its stdin", method)
			}
		} else {
			x.kind, x.err = failWrite, fmt.Sprintf("%s could not be written within %s (the hook does not read its stdin): %v", method, timeout, err)
		}
		return finish()
	}
	select {
	case a := <-ch:
		x.take(a, method)
	case <-timer.C:
		x.kind, x.err = failTimeout, fmt.Sprintf("no answer to %s within %s", method, timeout)
	case <-ctx.Done():
		x.kind, x.err = failCancel, ctx.Err().Error()
	case <-p.done:
		<-p.readDone // an answer written just before exiting still counts
		select {
		case a := <-ch:
			x.take(a, method)
		default:
			_, st := p.exitStatus()
			x.kind, x.err = failExit, fmt.Sprintf("the process exited (%s) before answering %s", st, method)
		}
	}
	return finish()
}

func (x *exchange) take(a answer, method string) {
	x.answer = a.line
	switch {
	case a.size > 0:
		x.answer = append(append([]byte(nil), a.line...), fmt.Sprintf("… [%s in all, not kept]", mib(a.size))...)
		x.kind, x.err = failTooLong, fmt.Sprintf("the answer to %s is a line of %s, over the %d MiB a JSON-RPC line may have here (PicoClaw itself reads at most 1 MiB): answer with less, or write the data to a file and answer with its path", method, mib(a.size), MaxLine>>20)
	case !a.isRPC:
		x.kind, x.err = failNotJSON, fmt.Sprintf("the answer to %s is not JSON", method)
	case a.msg.Error != nil:
		x.msg = &a.msg
		x.kind, x.err = failRPC, fmt.Sprintf("%s failed: %s", method, a.msg.Error.Message)
	default:
		x.msg = &a.msg
	}
}

// notify sends a notification (no id, no answer), giving up after timeout.
func (p *proc) notify(method string, params any, timeout time.Duration) exchange {
	start := time.Now()
	x := exchange{}
	line, err := request(-1, method, params)
	if err != nil {
		x.kind, x.err = failWrite, err.Error()
	} else {
		x.request = line
		if p.exited() {
			x.kind, x.err = failExit, "the process has exited"
		} else if err := p.write(line, timeout); err != nil {
			x.kind, x.err = failWrite, fmt.Sprintf("the notification could not be written within %s: %v", timeout, err)
			if p.exited() || process.IsBrokenPipe(err) {
				x.kind = failExit
			}
		}
	}
	x.dur = time.Since(start)
	x.strays = p.takeStrays()
	return x
}

// stop closes stdin, gives the process grace to exit, then kills its
// process group. It reports whether it had to kill. It returns once every
// goroutine of the process has ended.
func (p *proc) stop(grace time.Duration) (killed bool) {
	p.wmu.Lock()
	p.stdin.Close()
	p.wmu.Unlock()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		process.Kill(p.cmd)
		killed = true
		<-p.done
	}
	process.Kill(p.cmd) // whatever the hook started and left behind
	<-p.readDone
	<-p.errDone
	return killed
}

// mib says a size in MiB ("30.0 MiB").
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
