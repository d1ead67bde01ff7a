package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/process"
	"hookstudio/app/platform/workspace"
	"hookstudio/app/store/atomicfile"
)

// Errors of a request calibration (wrapped in a *ProbeError).
var (
	// ErrUnexplained: two runs' texts differ where no slot of ours stands;
	// the calibration cannot tell the CLI's text from a value.
	ErrUnexplained = errors.New("the CLI's texts differ between runs where no slot explains it")
	// ErrRebuild: the model learned does not give back a run's request.
	ErrRebuild = errors.New("the request model does not rebuild the CLI's request")
)

// reqRun is one run of the CLI for its request model: a project of its
// own at a path of its own, a prompt, files, the model's answers.
type reqRun struct {
	name string
	// rel is the project folder under the run's temporary folder: paths
	// of different lengths and characters tell the folder's slots apart.
	rel    string
	prompt string
	// files of the project ("~/…" in the home folder); hooks writes them
	// with their hooks' commands, given the project's path.
	files map[string]string
	env   []string
	// git: the project is a git repository with a commit; dirty adds an
	// untracked file (untracked: these files).
	git, dirty     bool
	untracked      []string
	branch, commit string
	answers        []capture.Answer
	// sub answers a sub-agent's requests (capture.SubagentHeader) by
	// their rounds, apart from the session's: a run that starts one.
	sub []capture.Answer
	// args are this run's own flags ("@/" is the run's folder); skills the
	// skills its files plant, which the CLI lists
	args   []string
	skills []request.Entry
	// stop are the words the run's stop hook blocks with once.
	stop string
	// context are the instruction files its files plant, whose contents
	// the CLI sends (request.ListFiles).
	context []string
}

// reqRan is what a run left: its calls, the facts its slots had, the
// files its hooks wrote, and the CLI's transcripts.
type reqRan struct {
	run    reqRun
	calls  []capture.Call
	values request.Values
	// wrote are the files under the project's .probe-out folder (hooks'
	// stdin), transcripts those the CLI left under the home folder's
	// transcript folder (relative path → content).
	wrote       map[string][]byte
	transcripts map[string][]byte
	printed     string
	// folder is the project as read before the CLI started (its
	// listing), contexts its context files' contents by name.
	folder   request.Node
	contexts map[string]string
}

// reqAgent is what a request calibration needs of one agent.
type reqAgent struct {
	recipe string
	// args and env are added to the recipe's command and variables (the
	// tools a -p run may use, offline settings).
	args []string
	env  []string
	home map[string]string
	// runs lays out the runs given a nonce: the first is the base.
	runs func(nonce string) []reqRun
	// transcripts is the folder under the home folder where the CLI
	// keeps its transcripts ("" none).
	transcripts string
	// transcriptFormat names how they are read.
	transcriptFormat string
	// files are the context files the CLI reads from the folder
	// (GEMINI.md, AGENTS.md); tree says it lists the folder's structure.
	files []string
	tree  bool
	// shell is the CLI's shell tool; outputs are what each command the
	// runs give it prints and its exit code, so that the words around an
	// output read as a template (request.ResultFrame). Without them, an
	// `echo WORDS` prints its words (probeOutput).
	shell   string
	outputs map[string]shellOutput
}

// shellOutput is what a probe's command prints and its exit code.
type shellOutput struct {
	out  string
	code int
}

// Request learns the request model of opts.CLI: the CLI runs several
// times offline against capture, each time in another folder and with
// other values (a git repository, another prompt), and the texts of its
// first request are read as templates whose slots are where those values
// landed. Every run is then rebuilt from the model learned, and must come
// out as the CLI sent it.
func Request(ctx context.Context, opts Options) (*request.Model, error) {
	spec, rc, version, ran, err := runRequest(ctx, &opts)
	if err != nil {
		return nil, err
	}
	main, subs := subRuns(ran)
	m, err := deriveRequest(spec, rc, version, main)
	if err != nil {
		return nil, err
	}
	if err := learnSubagent(m, spec, rc, version, subs); err != nil {
		return nil, err
	}
	m.MadeBy = "hookctl calibrate " + opts.Agent
	return m, nil
}

// runRequest runs the CLI for its request model, the runs side by side.
func runRequest(ctx context.Context, opts *Options) (reqAgent, recipe.Recipe, string, []*reqRan, error) {
	spec, ok := reqAgents()[opts.Agent]
	if !ok {
		return spec, recipe.Recipe{}, "", nil, &ProbeError{Probe: "request", Err: fmt.Errorf("%s: %w", opts.Agent, ErrUnsupported)}
	}
	if opts.RunTimeout <= 0 {
		opts.RunTimeout = 3 * time.Minute
	}
	if cli, err := filepath.Abs(opts.CLI); err == nil {
		opts.CLI = cli
	}
	if opts.Progress == nil {
		opts.Progress = func(Progress) {}
	}
	rc, err := recipe.Find(spec.recipe)
	if err != nil {
		return spec, rc, "", nil, err
	}
	version, err := cliVersion(ctx, opts.CLI)
	if err != nil {
		return spec, rc, "", nil, &ProbeError{Probe: "version", Err: fmt.Errorf("%w: %w", ErrNotOffline, err)}
	}
	runs := spec.runs(nonce())
	ran := make([]*reqRan, len(runs))
	errs := make([]error, len(runs))
	// side by side: each run is a CLI start of seconds
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Go(func() {
			report := func(n int, msg string) {
				opts.Progress(Progress{Run: i + 1, Runs: len(runs), Probe: "request " + r.name, Requests: n, Message: msg})
			}
			// Qwen Code 0.24.4 reads a quick command's exit before its
			// output now and then (the result says it printed nothing): a
			// run that lost a probe's output runs again
			for attempt := 0; attempt < 3; attempt++ {
				ran[i], errs[i] = runForRequest(ctx, *opts, spec, rc, r, report)
				if errs[i] != nil || !lostOutput(ran[i]) {
					break
				}
				report(0, "the CLI lost a command's output: again")
			}
		})
	}
	wg.Wait()
	return spec, rc, version, ran, errors.Join(errs...)
}

// SaveRequest writes m to the data folder (requests/<agent>/<version>.json)
// at once.
func SaveRequest(dataDir string, m *request.Model) (string, error) {
	file := request.Path(dataDir, m.Agent, m.Version)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", fmt.Errorf("save the request model: %w", err)
	}
	if err := atomicfile.Write(file, request.Encode(m), 0o644); err != nil {
		return "", fmt.Errorf("save the request model: %w", err)
	}
	return file, nil
}

// runForRequest runs the CLI once for its request model.
func runForRequest(ctx context.Context, opts Options, spec reqAgent, rc recipe.Recipe, r reqRun, report func(int, string)) (*reqRan, error) {
	dir, err := os.MkdirTemp("", "hookstudio-calreq-")
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer os.RemoveAll(dir)
	// resolved: a folder under a link (macOS's /var) is named as the CLI
	// names it, by its real path
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	proj, home, tmp := filepath.Join(dir, filepath.FromSlash(r.rel)), filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	rec := &recorder{report: report}
	srv, err := capture.Listen(capture.Options{Answerer: bySubagent{main: r.answers, sub: r.sub}, Agents: capture.NewAgentReader(profile.NewCatalog(opts.DataDir)), OnCall: rec.add})
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer srv.Close()
	run := rc.For(srv.URL(), r.prompt)
	// the hooks write outside the project: git's status stays as it was
	out := filepath.Join(dir, "probe-out")
	files := map[string]string{filepath.Join(tmp, ".keep"): "", filepath.Join(out, ".keep"): ""}
	for rel, text := range spec.home {
		files[filepath.Join(home, rel)] = text
	}
	for _, f := range run.Files {
		path := filepath.Join(proj, f.Path)
		if rest, ok := strings.CutPrefix(f.Path, "~/"); ok {
			path = filepath.Join(home, rest)
		}
		files[path] = f.Content
	}
	for rel, text := range r.files {
		path := filepath.Join(proj, rel)
		if rest, ok := strings.CutPrefix(rel, "~/"); ok {
			path = filepath.Join(home, rest)
		}
		if rest, ok := strings.CutPrefix(rel, "@/"); ok {
			path = filepath.Join(dir, rest)
		}
		files[path] = strings.ReplaceAll(text, "$PROBE_OUT", out)
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
	}
	runner := process.NewGroup()
	defer runner.Close()
	if r.git {
		if err := gitRepo(ctx, runner, proj, r); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
	}
	env := append(agentEnv(home, tmp, proj), cliEnvOf(srv.URL())...)
	for _, v := range run.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	env = append(append(env, spec.env...), r.env...)
	// what the hooks and the CLI will see of this folder and machine, read
	// before the CLI starts (its own files are not the user's)
	values := workspace.Facts(ctx, proj, workspace.Options{Home: home, Shell: envValue(env, "SHELL")})
	values[request.SlotPrompt] = r.prompt
	folder, _ := workspace.Listing(ctx, proj, workspace.ListingOptions{})
	contexts := map[string]string{}
	for _, name := range spec.files {
		if data, err := os.ReadFile(filepath.Join(proj, name)); err == nil {
			contexts[name] = string(data)
		}
	}
	for i, e := range r.skills { // where the run planted them
		e.Dir = strings.Replace(e.Dir, "@/", dir+string(filepath.Separator), 1)
		if !filepath.IsAbs(e.Dir) {
			e.Dir = filepath.Join(proj, e.Dir)
		}
		r.skills[i] = e
	}
	for k, x := range request.SkillValues(r.skills) {
		values[k] = x
	}
	rctx, cancel := context.WithTimeout(ctx, opts.RunTimeout)
	defer cancel()
	var res process.Result
	for k, argv := range append(run.Before, run.Run) {
		argv = slices.Clone(argv)
		argv[0] = opts.CLI
		if k == len(run.Before) {
			argv = append(argv, spec.args...) // after the prompt: a flag may take several values
			for _, a := range r.args {
				argv = append(argv, strings.Replace(a, "@/", dir+string(filepath.Separator), 1))
			}
		}
		report(0, "starting "+filepath.Base(opts.CLI))
		if res = runner.Run(rctx, process.Spec{Argv: argv, Dir: proj, Env: env, MaxStdout: outputCap, MaxStderr: outputCap}); res.ExitCode != 0 || res.Err != nil || res.TimedOut {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_ = srv.Close() // the last answer is recorded before the calls are read
	got := &reqRan{run: r, calls: rec.all(), values: values, printed: string(res.Stdout) + "\n" + string(res.Stderr), folder: folder, contexts: contexts}
	if err := runFailed(r.name, opts, res, len(got.calls), true, ""); err != nil {
		return nil, err
	}
	got.wrote = readTree(out)
	if id := sessionOf(got.wrote); id != "" {
		got.values[request.SlotSession] = id
	}
	if spec.transcripts != "" {
		got.transcripts = readTree(filepath.Join(home, filepath.FromSlash(spec.transcripts)))
	}
	report(len(got.calls), "done")
	return got, nil
}

// cliEnvOf are the variables that keep every agent's traffic on the
// capture's loopback port and its updates off.
func cliEnvOf(url string) []string {
	return []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "ANTHROPIC_API_KEY=sk-ant-hookstudio-calibration",
		"ANTHROPIC_BASE_URL=" + url}
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// gitRepo makes proj a git repository with one commit of its files, on
// the run's branch; a dirty run leaves an untracked file beside.
func gitRepo(ctx context.Context, g *process.Group, proj string, r reqRun) error {
	steps := [][]string{
		{"git", "init", "-q", "-b", r.branch},
		{"git", "add", "-A"},
		{"git", "-c", "user.name=Hook Studio", "-c", "user.email=calibration@hookstudio.invalid", "commit", "-q", "-m", r.commit},
	}
	for _, argv := range steps {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		res := g.Run(rctx, process.Spec{Argv: argv, Dir: proj, Env: os.Environ(), MaxStdout: 1 << 16, MaxStderr: 1 << 16})
		cancel()
		if res.Err != nil || res.ExitCode != 0 {
			return fmt.Errorf("%s: exit %d: %v %s", strings.Join(argv, " "), res.ExitCode, res.Err, res.Stderr)
		}
	}
	if !r.dirty {
		return nil
	}
	files := r.untracked
	if len(files) == 0 {
		files = []string{"hsr-untracked.txt"}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("untracked\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readTree is every regular file under dir, by its slash path relative to
// dir (nil when dir is missing).
func readTree(dir string) map[string][]byte {
	out := map[string][]byte{}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if data, err := os.ReadFile(path); err == nil {
			out[filepath.ToSlash(rel)] = data
		}
		return nil
	})
	return out
}

// cliVersion is the CLI's version, as locate reads it.
func cliVersion(ctx context.Context, cli string) (string, error) {
	if _, err := exec.LookPath(cli); err != nil {
		return "", err
	}
	return versionOf(ctx, cli)
}

// bodyOf is a call's body as a generic JSON object.
func bodyOf(c capture.Call) (map[string]json.RawMessage, []string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(c.Body, &m); err != nil {
		return nil, nil, err
	}
	return m, topKeys(c.Body), nil
}

// sessionOf is the session id the hooks read (session_id, sessionId), ""
// when none did.
func sessionOf(wrote map[string][]byte) string {
	names := make([]string, 0, len(wrote))
	for name := range wrote {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var in struct {
			Snake string `json:"session_id"`
			Camel string `json:"sessionId"`
		}
		if json.Unmarshal(wrote[name], &in) == nil && in.Snake+in.Camel != "" {
			return in.Snake + in.Camel
		}
	}
	return ""
}

// lostOutput says a run's probe command printed words its result does not
// hold.
func lostOutput(r *reqRan) bool {
	for _, res := range toolResults(r) {
		var args struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(res.call.Arguments, &args) != nil {
			continue
		}
		// the agent may write the command too (Qwen Code's "Command: echo …")
		shown := strings.ReplaceAll(res.msg.Content, args.Command, "")
		if out, ok := probeOutput(args.Command); ok && out != "" && !strings.Contains(shown, out) {
			return true
		}
	}
	return false
}

// toolResult is a tool's result the CLI sent, and the call it answers.
type toolResult struct {
	call capture.ToolCall
	msg  capture.Message
}

// toolResults are the tool results the run's last turn call sent, in
// order, each with its call.
func toolResults(r *reqRan) []toolResult {
	calls := turnCalls(r)
	if len(calls) == 0 {
		return nil
	}
	var out []toolResult
	asked := map[string]capture.ToolCall{}
	for _, msg := range calls[len(calls)-1].Messages {
		for _, tc := range msg.ToolCalls {
			asked[tc.ID] = tc
		}
		if tc, ok := asked[msg.ToolCallID]; ok && msg.Role == "tool" {
			out = append(out, toolResult{tc, msg})
		}
	}
	return out
}
