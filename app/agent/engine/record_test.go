package engine

import (
	"context"
	"reflect"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

func TestRecordRoundTrip(t *testing.T) {
	hooks := hookList{hk("m", skills.AfterUserInput, true), hk("t", skills.AfterToolCall, false, "a"), hk("e", skills.BeforeEachAgent, false)}
	sc := scenario.Scenario{EnableTools: true, SystemPrompt: "sys", Tools: tools, Requests: []scenario.Request{loop(calls("a", "b")), {User: "2", Planning: &scenario.Planning{}}}}
	tr, err := Run(context.Background(), &sc, hooks, Config{Model: script{&sc}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromRecord(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Record(), tr.Record()) || !reflect.DeepEqual(back.Document(), tr.Document()) {
		t.Error("round trip changed the trace")
	}
}

func TestFromRecordRejectsDamage(t *testing.T) {
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}}
	tr, _ := Run(context.Background(), &sc, hookList{hk("t", skills.AfterToolCall, false)}, Config{Model: script{&sc}})
	damage := []func(r *Record){
		func(r *Record) { r.Messages[0].Created = 9999 },
		func(r *Record) { r.Steps[0].AddTo = 9999 },
		func(r *Record) { r.RemovedIDs = append(r.RemovedIDs, -1) },
		func(r *Record) { r.Calls[0].Step = -1 },
		func(r *Record) { r.Hooks = nil },
	}
	for i, d := range damage {
		r := tr.Record()
		r.Messages = append([]MessageRecord(nil), r.Messages...)
		r.Steps = append([]StepRecord(nil), r.Steps...)
		r.Calls = append([]LLMCall(nil), r.Calls...)
		d(&r)
		if _, err := FromRecord(r); err == nil {
			t.Errorf("damage %d accepted", i)
		}
	}
}
