package cmdhook

import (
	"path/filepath"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/process"
)

func TestCacheReuse(t *testing.T) {
	root := writeTree(t, map[string]string{
		"guard/hooks/hooks.yaml": "pre_llm_request:\n  - command: \"sh \\\"$JCLI_HOOK_DIR/ctx.sh\\\"\"\n",
		"guard/hooks/ctx.sh":     "cat >/dev/null; echo '{\"additional_context\": \"v1\"}'\n",
	})
	cache := NewCache()
	sc := parseScenario(t, full)
	runOnce := func() []engine.HookCall {
		tr, _, err := simulate(t, root, sc, func(o *Options) { o.Cache = cache })
		if err != nil {
			t.Fatal(err)
		}
		return callsOf(tr, "pre_llm_request")
	}
	reused := func(calls []engine.HookCall) (n int) {
		for _, c := range calls {
			if c.Reused {
				n++
			}
		}
		return n
	}
	first := runOnce()
	if len(first) == 0 || reused(first) != 0 {
		t.Fatalf("first run: %d calls, %d reused", len(first), reused(first))
	}
	second := runOnce()
	if reused(second) != len(second) {
		t.Errorf("second run: %d of %d reused", reused(second), len(second))
	}
	for i := range second {
		if string(second[i].Output) != string(first[i].Output) || second[i].Outcome != first[i].Outcome {
			t.Errorf("call %d: reused %s/%s, ran %s/%s", i, second[i].Output, second[i].Outcome, first[i].Output, first[i].Outcome)
		}
	}
	// A script in the hook's folder changed: nothing is reused.
	writeFile(t, filepath.Join(root, "guard/hooks/ctx.sh"), "cat >/dev/null; echo '{\"additional_context\": \"v2\"}'\n")
	third := runOnce()
	if reused(third) != 0 {
		t.Errorf("after an edit: %d reused", reused(third))
	}
	// A different input (the scenario's system prompt): not reused.
	sc = parseScenario(t, full+"\n")
	sc.SystemPrompt = "changed"
	if fourth := runOnce(); reused(fourth) != 0 {
		t.Errorf("new input: %d reused", reused(fourth))
	}
}

func TestCacheKeepsNoTimeouts(t *testing.T) {
	c := NewCache()
	k := cacheKey([]byte("a"))
	c.put(k, process.Result{TimedOut: true})
	if _, ok := c.get(k); ok {
		t.Error("a timeout was cached")
	}
	c.max = 2
	for i := range 3 {
		c.put(cacheKey([]byte{byte(i)}), process.Result{})
	}
	if c.Len() != 2 {
		t.Errorf("len %d", c.Len())
	}
}
