// Package mockllm runs @dwmkerr/mock-llm, an OpenAI-compatible mock server
// from npm that nobody here wrote, for tests: the frontend's devDependency,
// started from frontend/node_modules/.bin/mock-llm, bound to 127.0.0.1 on
// a free port, with a rule file.
package mockllm

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// RequireEnv, when set to anything but "", makes a missing mock-llm a test
// failure instead of a skip: `make test-thirdparty` sets it, after
// installing frontend/node_modules.
const RequireEnv = "HOOKSTUDIO_REQUIRE_MOCK_LLM"

// Server is a running mock-llm.
type Server struct {
	URL  string // http://127.0.0.1:PORT, without /v1
	Host string // 127.0.0.1:PORT, as errors name it
	out  *syncBuffer
}

// Log is what the server printed so far.
func (s *Server) Log() string { return s.out.String() }

// RepoRoot is the folder holding go.mod, found upwards from the working
// directory (a package's folder under go test).
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the repository: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("find the repository: no go.mod above the working directory")
		}
		dir = parent
	}
}

// ErrNotInstalled: frontend/node_modules does not exist at all.
var ErrNotInstalled = errors.New("frontend/node_modules is not installed (`scripts/setup.sh frontend` installs it; `make test-thirdparty` runs it first)")

// Binary is the installed mock-llm. Without frontend/node_modules the
// error is ErrNotInstalled; node_modules without mock-llm (a lock that
// lost it) or no node is another error.
func Binary() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	modules := filepath.Join(root, "frontend", "node_modules")
	bin := filepath.Join(modules, ".bin", "mock-llm")
	if _, err := os.Stat(modules); errors.Is(err, fs.ErrNotExist) {
		return bin, fmt.Errorf("%s: %w", modules, ErrNotInstalled)
	}
	if _, err := os.Stat(bin); err != nil {
		return bin, fmt.Errorf("frontend/node_modules has no mock-llm (is @dwmkerr/mock-llm still a devDependency? run `scripts/setup.sh frontend`): %w", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return bin, fmt.Errorf("mock-llm needs node: %w", err)
	}
	return bin, nil
}

// Start runs mock-llm with the rule file until the test ends. Only when
// frontend/node_modules is not installed at all is the test skipped,
// saying why, and not even then when RequireEnv is set.
func Start(t testing.TB, rules string) *Server {
	t.Helper()
	bin, err := Binary()
	switch {
	case errors.Is(err, ErrNotInstalled) && os.Getenv(RequireEnv) == "":
		t.Skipf("skipping the run against the third-party mock-llm server: %v", err)
	case err != nil:
		t.Fatalf("third-party mock-llm server: %v", err)
	}
	rules, err = filepath.Abs(rules)
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for range 3 { // a free port may be taken before mock-llm binds it
		s, err := start(t, bin, rules)
		if err == nil {
			return s
		}
		last = err
	}
	t.Fatalf("start mock-llm: %v", last)
	return nil
}

func start(t testing.TB, bin, rules string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	out := &syncBuffer{}
	cmd := exec.Command(bin, "--config", rules)
	// Its working folder holds no mock-llm.yaml; HOST keeps it off every
	// other interface (it binds 0.0.0.0 by default).
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOST=127.0.0.1", "PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	host := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &Server{URL: "http://" + host, Host: host, out: out}
	deadline := time.Now().Add(20 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case err := <-exited:
			exited <- err
			stop()
			return nil, fmt.Errorf("mock-llm exited (%v):\n%s", err, out.String())
		default:
		}
		if res, err := client.Get(s.URL + "/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("mock-llm not healthy on %s after 20s:\n%s", host, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(stop)
	return s, nil
}

// Reset puts the rule file back and its sequence counters to zero.
func (s *Server) Reset(t testing.TB) {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, s.URL+"/config", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("reset mock-llm: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("reset mock-llm: status %d", res.StatusCode)
	}
}

// Listening is the address the server says it listens on.
func (s *Server) Listening() string {
	for _, line := range strings.Split(s.Log(), "\n") {
		if _, addr, ok := strings.Cut(line, "server running on "); ok {
			return strings.TrimSpace(addr)
		}
	}
	return ""
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
