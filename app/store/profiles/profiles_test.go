package profiles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

const fakeKey = "sk-hookstudio-FAKEKEY-2718281828"

// fakeKeyring is an in-memory keyring; err, if set, is what every call fails with.
type fakeKeyring struct {
	mu  sync.Mutex
	m   map[string]string
	err error
}

func (f *fakeKeyring) Get(service, user string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return "", f.err
	}
	v, ok := f.m[service+"/"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (f *fakeKeyring) Set(service, user, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	if f.m == nil {
		f.m = map[string]string{}
	}
	f.m[service+"/"+user] = secret
	return nil
}

func (f *fakeKeyring) Delete(service, user string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	if _, ok := f.m[service+"/"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.m, service+"/"+user)
	return nil
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestSaveLoadAtomic(t *testing.T) {
	dir := t.TempDir()
	path := DefaultPath(dir)
	temp := 0.3
	ps := []Profile{
		{Name: "openai", Provider: OpenAI, BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", Temperature: &temp, MaxTokens: 512, Timeout: Duration(90 * time.Second)},
		{Name: "claude", Provider: Anthropic, BaseURL: "https://api.anthropic.com", Model: "claude-sonnet-4-5"},
	}
	if err := Save(path, ps); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Timeout != Duration(90*time.Second) || *got[0].Temperature != 0.3 || got[1].Provider != Anthropic {
		t.Errorf("loaded %+v", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"timeout": "1m30s"`) {
		t.Errorf("file:\n%s", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if ps, err := Load(filepath.Join(dir, "missing.json")); err != nil || len(ps) != 0 {
		t.Errorf("missing file: %v, %v", ps, err)
	}
}

func TestValidation(t *testing.T) {
	good := Profile{Name: "p", Provider: OpenAI, BaseURL: "http://localhost:11434/v1", Model: "qwen2.5"}
	tests := []struct {
		name   string
		modify func(*Profile)
		want   string
	}{
		{"empty name", func(p *Profile) { p.Name = "" }, "name is empty"},
		{"bad provider", func(p *Profile) { p.Provider = "gemini" }, `provider "gemini" is unknown`},
		{"no provider", func(p *Profile) { p.Provider = "" }, "provider is empty"},
		{"bad url", func(p *Profile) { p.BaseURL = "localhost:11434" }, "is not an http(s) URL"},
		{"credentials in url", func(p *Profile) { p.BaseURL = "https://user:" + fakeKey + "@x.test/v1" }, "must not carry credentials"},
		{"no model", func(p *Profile) { p.Model = "" }, "model is empty"},
		{"temperature", func(p *Profile) { t := 3.0; p.Temperature = &t }, "temperature 3 is outside 0..2"},
		{"max tokens", func(p *Profile) { p.MaxTokens = -1 }, "max_tokens -1 is negative"},
	}
	for _, tt := range tests {
		p := good
		tt.modify(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), fakeKey) {
			t.Errorf("%s: error holds the key", tt.name)
		}
	}
	if err := good.Validate(); err != nil {
		t.Errorf("good profile: %v", err)
	}
	if err := Save(filepath.Join(t.TempDir(), "p.json"), []Profile{good, good}); err == nil || !strings.Contains(err.Error(), "defined twice") {
		t.Errorf("duplicate names: %v", err)
	}
	path := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(path, []byte(`{"version":1,"profiles":[{"name":"p","provider":"openai","base_url":"http://x/v1","model":"m","api_key":"nope"}]}`), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "api_key") {
		t.Errorf("unknown field: %v", err)
	}
	os.WriteFile(path, []byte(`{"profiles":[{"name":"p","provider":"openai","base_url":"http://x/v1","model":"m","timeout":"soon"}]}`), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("bad timeout: %v", err)
	}
}

func TestKeys(t *testing.T) {
	p := Profile{Name: "work", Provider: OpenAI, BaseURL: "http://x.test/v1", Model: "m"}
	dir := t.TempDir()

	kr := &fakeKeyring{}
	s := &Store{Path: DefaultPath(dir), Keys: kr, Getenv: env(map[string]string{"OPENAI_API_KEY": "sk-from-env"})}
	if err := s.Put(p); err != nil {
		t.Fatal(err)
	}
	if got := s.KeySource(p); got != KeyFromEnv {
		t.Errorf("no key in the keyring: source %s, want env", got)
	}
	if err := s.SetKey(p, fakeKey); err != nil {
		t.Fatal(err)
	}
	if kr.m[KeyringService+"/work"] != fakeKey {
		t.Errorf("keyring holds %v", kr.m)
	}
	if got := s.KeySource(p); got != KeyFromKeyring {
		t.Errorf("source %s, want keyring", got)
	}
	data, _ := os.ReadFile(s.Path)
	if strings.Contains(string(data), fakeKey) {
		t.Error("the profiles file holds the key")
	}
	if err := s.Delete("work"); err != nil {
		t.Fatal(err)
	}
	if len(kr.m) != 0 {
		t.Errorf("key kept after delete: %v", kr.m)
	}

	// Headless Linux: D-Bus fails, the environment is the fallback, and
	// storing a key says which variable to set, without echoing the key.
	for _, kerr := range []error{keyring.ErrUnsupportedPlatform, errors.New("failed to open dbus connection: dial unix /run/user/0/bus: no such file or directory")} {
		s := &Store{Path: DefaultPath(dir), Keys: &fakeKeyring{err: kerr}, Getenv: env(map[string]string{"OPENAI_API_KEY": fakeKey})}
		if got := s.KeySource(p); got != KeyFromEnv {
			t.Errorf("%v: source %s, want env", kerr, got)
		}
		err := s.SetKey(p, fakeKey)
		if !errors.Is(err, ErrNoKeyring) || !strings.Contains(err.Error(), "OPENAI_API_KEY") || strings.Contains(err.Error(), fakeKey) {
			t.Errorf("%v: SetKey err = %v", kerr, err)
		}
	}
	none := &Store{Path: DefaultPath(dir), Keys: &fakeKeyring{}, Getenv: env(nil)}
	if got := none.KeySource(p); got != KeyNone {
		t.Errorf("source %s, want none", got)
	}
	ap := Profile{Name: "a", Provider: Anthropic}
	if EnvVar(ap.Provider) != "ANTHROPIC_API_KEY" {
		t.Error("anthropic env var")
	}
}

func TestConnection(t *testing.T) {
	var mu sync.Mutex
	var seen []string // every request as the server saw it, headers aside
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.URL.String()+" "+string(body))
		mu.Unlock()
		auth := r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
		if !strings.Contains(auth, fakeKey) {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s"}}`, auth)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		if strings.HasSuffix(r.URL.Path, "/messages") {
			for _, e := range []string{
				`event: message_start` + "\n" + `data: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"c","usage":{"input_tokens":1,"output_tokens":1}}}`,
				`event: content_block_start` + "\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`event: content_block_delta` + "\n" + `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`,
				`event: message_stop` + "\n" + `data: {"type":"message_stop"}`,
			} {
				fmt.Fprintf(w, "%s\n\n", e)
			}
			return
		}
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()

	dir := t.TempDir()
	kr := &fakeKeyring{}
	s := &Store{Path: DefaultPath(dir), Keys: kr, Getenv: env(nil)}
	oa := Profile{Name: "local", Provider: OpenAI, BaseURL: srv.URL + "/v1", Model: "m", Timeout: Duration(5 * time.Second)}
	an := Profile{Name: "claude", Provider: Anthropic, BaseURL: srv.URL, Model: "c"}
	for _, p := range []Profile{oa, an} {
		if err := s.Put(p); err != nil {
			t.Fatal(err)
		}
	}
	var results []Result
	for _, p := range []Profile{oa, an} {
		r := s.TestConnection(context.Background(), p)
		if r.OK || !strings.Contains(r.Message, "key rejected by 127.0.0.1:") || !strings.Contains(r.Message, "no key is set") {
			t.Errorf("%s without a key: %+v", p.Name, r)
		}
		results = append(results, r)
		if err := s.SetKey(p, fakeKey); err != nil {
			t.Fatal(err)
		}
		r = s.TestConnection(context.Background(), p)
		if !r.OK || r.Reply != "ok" || r.KeySource != KeyFromKeyring || !strings.Contains(r.Message, "connected to 127.0.0.1:") {
			t.Errorf("%s with a key: %+v", p.Name, r)
		}
		results = append(results, r)
		kr.m[KeyringService+"/"+p.Name] = "sk-wrong-" + fakeKey[3:8]
		r = s.TestConnection(context.Background(), p)
		if r.OK || !strings.Contains(r.Message, "key rejected") || strings.Contains(r.Message, "sk-wrong") {
			t.Errorf("%s with a wrong key: %+v", p.Name, r)
		}
		results = append(results, r)
	}
	bad := Profile{Name: "down", Provider: OpenAI, BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	if r := s.TestConnection(context.Background(), bad); r.OK || r.Message == "" {
		t.Errorf("unreachable: %+v", r)
	}

	// The key is nowhere but in the keyring and the auth headers.
	out, _ := json.Marshal(results)
	file, _ := os.ReadFile(s.Path)
	mu.Lock()
	defer mu.Unlock()
	for what, text := range map[string]string{"results": string(out), "profiles file": string(file), "requests": strings.Join(seen, "\n")} {
		if strings.Contains(text, fakeKey) {
			t.Errorf("%s hold the key", what)
		}
	}
}
