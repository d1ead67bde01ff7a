package studio

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"hookstudio/app/agent/llm"
)

// An agent answer with neither text nor tool calls ends the run with an
// empty reply, and the app is told on that call: the view sent after the
// call and the final one carry the warning, on that call only.
func TestRealRunEmptyAnswerWarned(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			sse(w, content(`{"need_tool": true, "plan": "list the folder"}`, `"stop"`))
			return
		}
		sse(w, content("", `"stop"`))
	}))
	defer srv.Close()
	s, ev, _, _ := realService(t, srv.URL)
	if err := s.StartRun(RunOptions{Profile: "local"}); err != nil {
		t.Fatal(err)
	}
	e := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded })
	end := e.payload.(RunEnded)
	if end.Status != "ok" || len(end.View.Calls) != 2 || end.View.Requests[0].Reply != "" {
		t.Fatalf("ended %s with %d calls, reply %q", end.Status, len(end.View.Calls), end.View.Requests[0].Reply)
	}
	if w := end.View.Calls[0].Warning; w != "" {
		t.Errorf("planning call warned: %q", w)
	}
	if w := end.View.Calls[1].Warning; w != llm.EmptyAnswer {
		t.Errorf("empty answer: warning %q, want %q", w, llm.EmptyAnswer)
	}
	after := ev.waitFor(t, 0, func(e event) bool {
		v, ok := e.payload.(TraceView)
		return e.name == EventRunTrace && ok && len(v.Calls) == 2
	}).payload.(TraceView)
	if after.Calls[1].Warning != llm.EmptyAnswer {
		t.Errorf("the view sent after the call has no warning: %+v", after.Calls[1])
	}
}
