package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const providerFakeKey = "sk-hookstudio-FAKEKEY-1618033988"

const providerScenario = `name: real
system_prompt: You are a coding assistant.
tools: [{name: read_file, description: Read a file, parameters: {type: object, properties: {path: {type: string}}}}]
requests:
  - user: Read a
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: "contents of a"}]
      - content: done
`

// openAIChunks is a streamed Chat Completions answer.
func openAIChunks(w http.ResponseWriter, deltas ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, d := range deltas {
		fmt.Fprintf(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":null}]}`+"\n\n", d)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// fakeEndpoint answers planning, then a tool call of tool, then a final answer.
func fakeEndpoint(t *testing.T, tool string, first func(w http.ResponseWriter) bool) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var bodies []string
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		k := n
		n++
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+providerFakeKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if k == 0 && first != nil && first(w) {
			return
		}
		switch {
		case strings.Contains(string(b), `"tools"`) && !strings.Contains(string(b), `"role":"tool"`):
			openAIChunks(w, `{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"`+tool+`","arguments":"{\"path\":\"a\"}"}}]}`)
		case strings.Contains(string(b), `"tools"`):
			openAIChunks(w, `{"content":"All read."}`)
		default:
			openAIChunks(w, `{"content":"{\"need_tool\": true, \"plan\": \"read a\"}"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), bodies...) }
}

func runProvider(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(hookctl, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "COLUMNS=120", "OPENAI_API_KEY="+providerFakeKey, "HOOKSTUDIO_DATA_DIR="+dir,
		"DBUS_SESSION_BUS_ADDRESS=disabled:") // no keyring: the environment is the fallback
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func providerSetup(t *testing.T, baseURL string) (dir, scenarioPath, profilesPath string) {
	dir = t.TempDir()
	os.MkdirAll(filepath.Join(dir, "skills"), 0o755)
	scenarioPath = filepath.Join(dir, "real.yaml")
	os.WriteFile(scenarioPath, []byte(providerScenario), 0o644)
	profilesPath = filepath.Join(dir, "profiles.json")
	os.WriteFile(profilesPath, []byte(`{"version":1,"profiles":[{"name":"local","provider":"openai","base_url":"`+baseURL+`/v1","model":"m","timeout":"10s"}]}`), 0o600)
	return dir, scenarioPath, profilesPath
}

func TestSimulateProvider(t *testing.T) {
	srv, bodies := fakeEndpoint(t, "read_file", nil)
	dir, sc, prof := providerSetup(t, srv.URL)
	db := filepath.Join(dir, "history.db")
	stdout, stderr, code := runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--provider", "local", "--profiles", prof, "--db", db, sc)
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if n := len(bodies()); n != 3 {
		t.Errorf("%d requests, want planning + 2 agent rounds", n)
	}
	// The same rendering as a mock run of the same answers.
	mockOut, _, mcode := runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--no-history", sc)
	if mcode != exitOK {
		t.Fatalf("mock run exit %d", mcode)
	}
	for _, want := range []string{"planning", "read_file", "All read."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Count(stdout, "\n") < strings.Count(mockOut, "\n")/2 {
		t.Errorf("rendering much shorter than the mock's:\n%s\n---\n%s", stdout, mockOut)
	}
	stored, _ := os.ReadFile(db)
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "requests": strings.Join(bodies(), "\n"), "history": string(stored)} {
		if strings.Contains(text, providerFakeKey) {
			t.Errorf("%s holds the key", what)
		}
	}

	_, stderr, code = runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--provider", "nope", "--profiles", prof, "--no-history", sc)
	if code != exitProblems || !strings.Contains(stderr, `no profile "nope"; defined: local`) {
		t.Errorf("unknown profile: exit %d, stderr %s", code, stderr)
	}
}

func TestSimulateProviderUnknownToolResult(t *testing.T) {
	srv, _ := fakeEndpoint(t, "read_file", nil)
	dir, sc, prof := providerSetup(t, srv.URL)
	os.WriteFile(sc, []byte(strings.Replace(providerScenario, "arguments: {path: a}, result: \"contents of a\"", "arguments: {path: b}, result: \"b\"", 1)), 0o644)
	// Arguments differ, but the tool is scripted: the result matches by name.
	if _, stderr, code := runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--provider", "local", "--profiles", prof, "--no-history", sc); code != exitOK {
		t.Fatalf("matched by name: exit %d: %s", code, stderr)
	}
	srv2, _ := fakeEndpoint(t, "write_file", nil)
	_, _, prof2 := providerSetup(t, srv2.URL)
	stdout, stderr, code := runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--provider", "local", "--profiles", prof2, "--no-history", sc)
	if code != exitProblems || !strings.Contains(stderr, "no result for tool call write_file") || !strings.Contains(stderr, "cannot ask") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestSimulateProviderRetryShown(t *testing.T) {
	srv, _ := fakeEndpoint(t, "read_file", func(w http.ResponseWriter) bool {
		w.Header().Set("Retry-After-Ms", "20")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	})
	dir, sc, prof := providerSetup(t, srv.URL)
	_, stderr, code := runProvider(t, dir, "simulate", "--skills", filepath.Join(dir, "skills"), "--provider", "local", "--profiles", prof, "--no-history", sc)
	if code != exitOK || !strings.Contains(stderr, "rate limited (429) by 127.0.0.1:") || !strings.Contains(stderr, "retrying in 20ms") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
