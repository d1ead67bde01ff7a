package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// TestSimulateOTLP: simulate --otlp sends the run's spans to a collector;
// a bad URL is a usage error, a refusing collector exit 1.
func TestSimulateOTLP(t *testing.T) {
	var mu sync.Mutex
	names := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var req coltrace.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(data, &req) != nil {
			http.Error(w, "bad", 400)
			return
		}
		mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names[strings.Fields(s.Name)[0]]++
				}
			}
		}
		mu.Unlock()
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	defer srv.Close()
	scn := filepath.Join("..", "..", "skills", "file-tools", "scenarios", "fix-line-limit.yaml")
	skills := filepath.Join("..", "..", "skills")
	_, stderr, code := runCLI(t, "simulate", "--skills", skills, "--no-history", "--otlp", srv.URL, scn)
	if code != exitOK || !strings.Contains(stderr, "trace sent to") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mu.Lock()
	if names["hookstudio"] != 1 || names["request"] == 0 || names["chat"] == 0 || names["execute_tool"] == 0 {
		t.Errorf("spans by name %v", names)
	}
	mu.Unlock()

	if _, _, code := runCLI(t, "simulate", "--skills", skills, "--no-history", "--otlp", "ftp://x", scn); code != exitUsage {
		t.Errorf("bad --otlp URL: exit %d", code)
	}
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", 400) }))
	defer refuse.Close()
	if _, stderr, code := runCLI(t, "simulate", "--skills", skills, "--no-history", "--otlp", refuse.URL, scn); code != exitProblems || !strings.Contains(stderr, "otlp export") {
		t.Errorf("refusing collector: exit %d: %s", code, stderr)
	}
}
