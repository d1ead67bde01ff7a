package otelexport

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
)

// receiver is an in-process OTLP/HTTP trace collector.
type receiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	res   []*commonpb.KeyValue
	paths []string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := io.Reader(r.Body)
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		body = zr
	}
	data, err := io.ReadAll(body)
	if err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "bad request", 400)
		return
	}
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	rc.mu.Lock()
	rc.paths = append(rc.paths, r.URL.Path)
	for _, rs := range req.ResourceSpans {
		rc.res = rs.Resource.GetAttributes()
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func attr(s *tracepb.Span, key string) (*commonpb.AnyValue, bool) {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

func strAttr(s *tracepb.Span, key string) string {
	v, _ := attr(s, key)
	return v.GetStringValue()
}

func intAttr(s *tracepb.Span, key string) int64 {
	v, _ := attr(s, key)
	return v.GetIntValue()
}

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

type counter struct{}

func (counter) CountMessage(role, content string) int { return 1 + len(content) }

// TestExport sends a run with a retried request, a tool call and request
// hooks to an in-process collector and checks the spans it received.
func TestExport(t *testing.T) {
	src := `name: export
tools: [{name: read}]
requests:
  - user: read it
    planning:
      need_tool: true
      attempts: [{status: 429, reason: rate limited}, {status: 200}]
    rounds:
      - tool_calls: [{name: read, result: text}]
      - content: done
`
	sc, ds := scenario.Parse("x/scenarios/export.yaml", []byte(src))
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	root := t.TempDir()
	cfg := &reqhook.Config{Start: []reqhook.Hook{{Name: "audit", Command: "cat > /dev/null", Timeout: 5 * time.Second, Event: reqhook.EventStart}},
		End: []reqhook.Hook{{Name: "fail", Command: "exit 1", Timeout: 5 * time.Second, Event: reqhook.EventEnd}}}
	h := reqhook.New(reqhook.Options{Root: root, Config: cfg, Scenario: sc, Counter: counter{}})
	started := time.Now().Add(-time.Second)
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: h.Model(llm.NewMock(sc)), Handlers: []engine.Handler{h}, ModelName: "gpt-sim"})
	if err != nil {
		t.Fatal(err)
	}
	ended := time.Now()

	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	if err := Export(context.Background(), Run{Trace: tr, Scenario: sc.File, Backend: "mock", Started: started, Ended: ended, RunID: 7}, srv.URL); err != nil {
		t.Fatal(err)
	}
	if len(rc.paths) == 0 || rc.paths[0] != "/v1/traces" {
		t.Errorf("paths %v", rc.paths)
	}
	byName := map[string][]*tracepb.Span{}
	byID := map[string]*tracepb.Span{}
	traceIDs := map[string]bool{}
	for _, s := range rc.spans {
		byName[s.Name] = append(byName[s.Name], s)
		byID[hex.EncodeToString(s.SpanId)] = s
		traceIDs[hex.EncodeToString(s.TraceId)] = true
	}
	if len(traceIDs) != 1 {
		t.Errorf("%d traces, want one", len(traceIDs))
	}
	parent := func(s *tracepb.Span) *tracepb.Span { return byID[hex.EncodeToString(s.ParentSpanId)] }

	rootSpan := byName["hookstudio run export"]
	if len(rootSpan) != 1 || len(rootSpan[0].ParentSpanId) != 0 || intAttr(rootSpan[0], "hookstudio.run_id") != 7 ||
		rootSpan[0].StartTimeUnixNano != uint64(started.UnixNano()) || rootSpan[0].EndTimeUnixNano != uint64(ended.UnixNano()) {
		t.Fatalf("root span %v", rootSpan)
	}
	req := byName["request 0"]
	if len(req) != 1 || parent(req[0]) != rootSpan[0] {
		t.Fatalf("request span %v", req)
	}
	chats := byName["chat gpt-sim"]
	if len(chats) != len(tr.Calls) || len(chats) != 3 {
		t.Fatalf("%d chat spans for %d calls", len(chats), len(tr.Calls))
	}
	var planning *tracepb.Span
	for _, c := range chats {
		if parent(c) != req[0] || c.Kind != tracepb.Span_SPAN_KIND_CLIENT {
			t.Errorf("chat span %s parent/kind wrong", c.Name)
		}
		if strAttr(c, "gen_ai.operation.name") != "chat" || strAttr(c, "gen_ai.request.model") != "gpt-sim" ||
			strAttr(c, "gen_ai.provider.name") != "hookstudio.mock" || intAttr(c, "gen_ai.usage.input_tokens") <= 0 {
			t.Errorf("chat span attributes %v", c.Attributes)
		}
		if strAttr(c, "hookstudio.llm.phase") == "planning" {
			planning = c
		}
	}
	if planning == nil || intAttr(planning, "hookstudio.llm.attempts") != 2 || len(planning.Events) < 2 || planning.Events[0].Name != "attempt" {
		t.Fatalf("planning span %v", planning)
	}
	if v, _ := attr(&tracepb.Span{Attributes: planning.Events[0].Attributes}, "http.response.status_code"); v.GetIntValue() != 429 {
		t.Errorf("first attempt event %v", planning.Events[0].Attributes)
	}
	tool := byName["execute_tool read"]
	if len(tool) != 1 || strAttr(parent(tool[0]), "hookstudio.llm.phase") != "agent" || strAttr(tool[0], "gen_ai.tool.name") != "read" {
		t.Errorf("tool span %v", tool)
	}
	audits := byName["hook request.request_start audit"]
	fails := byName["hook request.request_end fail"]
	if len(audits) != 3 || len(fails) != 3 {
		t.Fatalf("hook spans: %d audit, %d fail", len(audits), len(fails))
	}
	for _, s := range append(audits, fails...) {
		p := parent(s)
		if p == nil || !strings.HasPrefix(p.Name, "chat ") {
			t.Errorf("hook span %s parent %v", s.Name, p)
		}
		if strAttr(s, "hookstudio.hook.system") != "request" || strAttr(s, "hookstudio.hook.name") == "" {
			t.Errorf("hook span attributes %v", s.Attributes)
		}
		if s.StartTimeUnixNano < p.StartTimeUnixNano {
			t.Errorf("hook span %s starts before its call", s.Name)
		}
	}
	if strAttr(fails[0], "hookstudio.hook.outcome") != "error" || fails[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR ||
		strAttr(audits[0], "hookstudio.hook.outcome") != "ok" || strAttr(audits[0], "hookstudio.hook.event") != "request_start" {
		t.Errorf("outcomes: fail %v, audit %v", fails[0], audits[0])
	}
	var svc string
	for _, kv := range rc.res {
		if kv.Key == "service.name" {
			svc = kv.Value.GetStringValue()
		}
	}
	if svc != ServiceName {
		t.Errorf("service.name %q", svc)
	}
}

func TestExportErrors(t *testing.T) {
	tr := &engine.Trace{}
	if err := Export(context.Background(), Run{Trace: tr}, "ftp://x"); err == nil || !strings.Contains(err.Error(), "not an http") {
		t.Errorf("bad URL: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 400) }))
	defer srv.Close()
	err := Export(context.Background(), Run{Trace: tr, Started: time.Now(), Ended: time.Now()}, srv.URL)
	if err == nil {
		t.Errorf("a collector refusing the spans is an error")
	}
	if u, _ := Endpoint("http://localhost:4318"); u.String() != "http://localhost:4318/v1/traces" {
		t.Errorf("endpoint %v", u)
	}
	if u, _ := Endpoint("https://c.example/otlp/v1/traces"); u.Path != "/otlp/v1/traces" {
		t.Errorf("endpoint path %v", u)
	}
}
