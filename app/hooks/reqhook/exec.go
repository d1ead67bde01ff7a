package reqhook

import (
	"context"
	"encoding/json"
	"fmt"
	"hookstudio/app/hooks/process"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxOutput caps what a hook's stdout and stderr keep.
const MaxOutput = 64 << 10

// result is how one command ended.
type result struct {
	stdout, stderr string
	exit           *int
	timedOut       bool
	err            error // could not start, or killed
	truncated      bool
	duration       time.Duration
}

// cleanEnv is the environment a hook gets: no API keys, nothing of the
// app's own environment beyond what a shell needs to run.
func cleanEnv(h *Hook, root, event string) []string {
	pathVar := "/usr/local/bin:/usr/bin:/bin"
	env := []string{
		"PATH=" + hookDir(h, root) + string(os.PathListSeparator) + pathVar,
		"HOME=" + os.Getenv("HOME"),
		"LANG=C.UTF-8",
		"HOOKSTUDIO_REQUEST_EVENT=" + event,
		"HOOKSTUDIO_ROOT=" + root,
		"HOOKSTUDIO_HOOK_DIR=" + hookDir(h, root),
	}
	return env
}

// run runs h's command through sh with stdin as its input, in root, in its
// own process group (in procs), killed with everything it started when
// timeout or ctx ends. It returns when the process and its output pipes
// are done.
func run(ctx context.Context, procs *process.Group, h *Hook, root string, stdin []byte) result {
	cctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	res := procs.Run(cctx, process.Spec{Argv: []string{"/bin/sh", "-c", h.Command}, Dir: root, Env: cleanEnv(h, root, h.Event),
		Stdin: stdin, MaxStdout: MaxOutput, MaxStderr: MaxOutput})
	r := result{stdout: string(res.Stdout), stderr: string(res.Stderr), truncated: res.Truncated, duration: res.Duration}
	if res.ExitCode >= 0 {
		code := res.ExitCode
		r.exit = &code
	}
	switch {
	case res.TimedOut && ctx.Err() == nil:
		r.timedOut = true
		r.err = fmt.Errorf("no answer within %s; the hook was killed", h.Timeout)
	case ctx.Err() != nil:
		r.err = fmt.Errorf("cancelled: %w", ctx.Err())
	case res.Err != nil:
		r.err = res.Err
	}
	return r
}

// denial is a start hook's answer: {"deny": {"message", "status"}}.
type denial struct {
	Deny *struct {
		Message string `json:"message"`
		Status  int    `json:"status"`
	} `json:"deny"`
}

// DenyExit is the exit status with which a start hook denies the request
// (its stderr is the message, the status 403).
const DenyExit = 2

// DefaultDenyStatus is the status of a denial that names none.
const DefaultDenyStatus = 403

// decide reads a start hook's answer: whether it denied, with what.
func decide(r *result) (deny bool, status int, msg string) {
	var d denial
	if out := strings.TrimSpace(r.stdout); strings.HasPrefix(out, "{") && json.Unmarshal([]byte(out), &d) == nil && d.Deny != nil {
		status = d.Deny.Status
		if status == 0 {
			status = DefaultDenyStatus
		}
		return true, status, d.Deny.Message
	}
	if r.exit != nil && *r.exit == DenyExit {
		return true, DefaultDenyStatus, strings.TrimSpace(r.stderr)
	}
	return false, 0, ""
}

// hookDir resolves a hook's folder for the environment.
func hookDir(h *Hook, root string) string {
	if h.Dir != "" {
		return h.Dir
	}
	return filepath.Join(root, ".hookstudio")
}
