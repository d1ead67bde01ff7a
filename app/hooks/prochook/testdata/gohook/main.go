// Command gohook is a scriptable PicoClaw process hook for the tests: a
// JSON plan (argv[1]) says how it answers each method; every message it
// receives is appended to $HOOK_LOG, one line each.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

type behavior struct {
	Result   json.RawMessage `json:"result"`   // the result object
	Error    *rpcError       `json:"error"`    // answer with a JSON-RPC error
	Raw      string          `json:"raw"`      // write this line instead ({id} is replaced)
	BigMiB   int             `json:"big_mib"`  // answer with a valid line this many MiB long
	SleepMS  int             `json:"sleep_ms"` // before answering
	Exit     *int            `json:"exit"`     // exit with this status instead of answering
	Stderr   string          `json:"stderr"`   // written to stderr before answering
	NoAnswer bool            `json:"no_answer"`
	Once     bool            `json:"once"` // only the first time across restarts (marker next to HOOK_LOG)
	Nth      int             `json:"nth"`  // only the nth request of this method (1-based) of this process
}

var seen = map[string]int{}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type plan struct {
	Methods   map[string]behavior `json:"methods"`
	IgnoreEOF bool                `json:"ignore_eof"` // keep running when stdin closes, ignore SIGTERM
	Spawn     bool                `json:"spawn"`      // start a sleeping child in the same group
}

func main() {
	var pl plan
	if len(os.Args) > 1 {
		if err := json.Unmarshal([]byte(os.Args[1]), &pl); err != nil {
			fmt.Fprintln(os.Stderr, "bad plan:", err)
			os.Exit(2)
		}
	}
	// The environment test reads whether the app's environment reached it.
	if v := os.Getenv("ROW_TEST_VAR"); v != "" {
		fmt.Fprintln(os.Stderr, "ROW_TEST_VAR="+v)
	}
	if pl.IgnoreEOF {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	}
	var log *os.File
	if p := os.Getenv("HOOK_LOG"); p != "" {
		log, _ = os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if log != nil {
				log.Write(line)
			}
			handle(&pl, line, out)
		}
		if err != nil {
			break
		}
	}
	if pl.IgnoreEOF {
		for {
			time.Sleep(time.Hour)
		}
	}
}

func handle(pl *plan, line []byte, out *bufio.Writer) {
	var msg struct {
		ID     *int64          `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		return
	}
	method := strings.TrimPrefix(msg.Method, "hook.")
	if msg.ID == nil { // a notification: no answer, but a slow observer may take its time
		if b, ok := pl.Methods[method]; ok && b.SleepMS > 0 {
			time.Sleep(time.Duration(b.SleepMS) * time.Millisecond)
		}
		return
	}
	b, ok := pl.Methods[method]
	seen[method]++
	if ok && b.Nth > 0 && seen[method] != b.Nth {
		ok = false
	}
	if ok && b.Once && !firstTime(method) {
		ok = false
	}
	if !ok {
		b = behavior{}
	}
	if b.Stderr != "" {
		fmt.Fprintln(os.Stderr, b.Stderr)
	}
	if b.SleepMS > 0 {
		time.Sleep(time.Duration(b.SleepMS) * time.Millisecond)
	}
	if b.Exit != nil {
		os.Exit(*b.Exit)
	}
	if b.NoAnswer {
		return
	}
	if b.BigMiB > 0 {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%d,"result":{"action":"continue","pad":"%s"}}`+"\n", *msg.ID, strings.Repeat("x", b.BigMiB<<20))
		out.Flush()
		return
	}
	if b.Raw != "" {
		fmt.Fprintln(out, strings.ReplaceAll(b.Raw, "{id}", fmt.Sprint(*msg.ID)))
		out.Flush()
		return
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": *msg.ID}
	switch {
	case b.Error != nil:
		resp["error"] = b.Error
	case b.Result != nil:
		resp["result"] = b.Result
	default:
		resp["result"] = defaultResult(method, msg.Params)
	}
	data, _ := json.Marshal(resp)
	out.Write(append(data, '\n'))
	out.Flush()
	if method == "hello" && pl.Spawn {
		spawnChild()
	}
}

func defaultResult(method string, params json.RawMessage) any {
	switch method {
	case "hello":
		var p struct {
			Name string `json:"name"`
		}
		json.Unmarshal(params, &p)
		return map[string]any{"ok": true, "name": p.Name}
	case "approve_tool":
		return map[string]any{"approved": true}
	}
	return map[string]any{"action": "continue"}
}

// firstTime reports whether method is seen for the first time across
// restarts of this hook (a marker file next to the log).
func firstTime(method string) bool {
	p := os.Getenv("HOOK_LOG")
	if p == "" {
		return true
	}
	f, err := os.OpenFile(p+"."+method+".once", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
