// Package otelexport sends a run to an OpenTelemetry collector as one
// trace over OTLP/HTTP: a root span for the run, one per request, one per
// LLM call following the GenAI semantic conventions (gen_ai.operation.name
// chat, gen_ai.request.model, gen_ai.provider.name, gen_ai.usage.*), one
// per tool call (execute_tool) and one per executable hook invocation
// (hookstudio.hook.system/event/name/outcome). Jaeger, Grafana Tempo,
// Langfuse and Phoenix all read it.
package otelexport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"hookstudio/app/agent/engine"
)

// Run is a finished run to export.
type Run struct {
	Trace    *engine.Trace
	Scenario string // the scenario file, for the root span
	Backend  string // "mock", "openai:PROFILE", "anthropic:PROFILE"
	Started  time.Time
	Ended    time.Time
	RunID    int64 // the history's run number (0: not recorded)
}

// Names of Hook Studio's own attributes.
const (
	AttrHookSystem  = attribute.Key("hookstudio.hook.system")
	AttrHookEvent   = attribute.Key("hookstudio.hook.event")
	AttrHookName    = attribute.Key("hookstudio.hook.name")
	AttrHookOutcome = attribute.Key("hookstudio.hook.outcome")
	AttrHookPoint   = attribute.Key("hookstudio.hook.point")
	AttrRequest     = attribute.Key("hookstudio.request.index")
	AttrPhase       = attribute.Key("hookstudio.llm.phase")
	AttrRound       = attribute.Key("hookstudio.llm.round")
	AttrAttempts    = attribute.Key("hookstudio.llm.attempts")
)

// ServiceName is the service.name of exported traces.
const ServiceName = "hookstudio"

// Endpoint checks a collector URL: http(s) with a host. A URL without a
// path gets OTLP's /v1/traces.
func Endpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("otlp endpoint %q is not an http(s) URL like http://localhost:4318", raw)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u, nil
}

// Export sends run to the OTLP/HTTP collector at endpoint and waits until
// it accepted the spans (or ctx ends).
func Export(ctx context.Context, run Run, endpoint string) error {
	if run.Trace == nil {
		return errors.New("otlp export: no trace")
	}
	u, err := Endpoint(endpoint)
	if err != nil {
		return err
	}
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpointURL(u.String()), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false})}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return fmt.Errorf("otlp export: %w", err)
	}
	res := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(ServiceName))
	col := &collector{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(col), sdktrace.WithResource(res))
	emit(ctx, tp.Tracer("hookstudio/otelexport"), run)
	if err := tp.Shutdown(ctx); err != nil {
		return fmt.Errorf("otlp export: %w", err)
	}
	// One request with every span, so the collector's answer is ours.
	err = exp.ExportSpans(ctx, col.spans)
	if serr := exp.Shutdown(context.WithoutCancel(ctx)); err == nil && serr != nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("otlp export to %s: %w", u.Redacted(), err)
	}
	return nil
}

// collector keeps the ended spans of one export.
type collector struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (c *collector) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *collector) OnEnd(s sdktrace.ReadOnlySpan) {
	c.mu.Lock()
	c.spans = append(c.spans, s)
	c.mu.Unlock()
}
func (c *collector) Shutdown(context.Context) error   { return nil }
func (c *collector) ForceFlush(context.Context) error { return nil }

// requestContext is the part of a request hook's input the spans use
// (app/hooks/reqhook.RequestContext).
type requestContext struct {
	Call          int        `json:"call"`
	Model         string     `json:"model"`
	Route         string     `json:"route"`
	StartTime     time.Time  `json:"start_time"`
	FirstByteTime *time.Time `json:"first_byte_time"`
	EndTime       *time.Time `json:"end_time"`
	HTTPStatus    int        `json:"http_status"`
	Attempts      []struct {
		StatusCode int       `json:"status_code"`
		Reason     string    `json:"reason"`
		Timestamp  time.Time `json:"timestamp"`
	} `json:"attempts"`
	Usage *struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
	} `json:"usage_metadata"`
}

// clock places steps in time: the run's real start and end, steps evenly
// between them (the trace keeps order, not times), and hook calls at their
// own durations.
type clock struct {
	start time.Time
	per   time.Duration
}

func (c clock) at(step int) time.Time { return c.start.Add(time.Duration(step) * c.per) }

func emit(ctx context.Context, tr trace.Tracer, run Run) {
	t := run.Trace
	steps := t.Steps()
	if run.Ended.Before(run.Started) {
		run.Ended = run.Started
	}
	n := max(len(steps), 1)
	ck := clock{start: run.Started, per: run.Ended.Sub(run.Started) / time.Duration(n)}

	// The request hooks' end contexts carry the calls' real times.
	ends := map[int]*requestContext{}
	for _, hc := range t.HookCalls {
		if hc.System == "request" && hc.Event == "request_end" && len(hc.Input) > 0 {
			var rc requestContext
			if json.Unmarshal(hc.Input, &rc) == nil && rc.EndTime != nil {
				if _, seen := ends[rc.Call]; !seen {
					ends[rc.Call] = &rc
				}
			}
		}
	}

	name := "hookstudio run " + t.Scenario
	rootAttrs := []attribute.KeyValue{attribute.String("hookstudio.scenario", t.Scenario), attribute.String("hookstudio.scenario_file", run.Scenario),
		attribute.String("hookstudio.backend", run.Backend), attribute.String("hookstudio.status", string(t.Status))}
	if run.RunID != 0 {
		rootAttrs = append(rootAttrs, attribute.Int64("hookstudio.run_id", run.RunID))
	}
	rctx, root := tr.Start(ctx, name, trace.WithTimestamp(run.Started), trace.WithAttributes(rootAttrs...), trace.WithSpanKind(trace.SpanKindInternal))
	if t.Status != engine.StatusOK {
		root.SetStatus(codes.Error, t.Error)
	}

	// Spans are ended once every span is started, children first.
	var ending []func()
	defer func() {
		for i := len(ending) - 1; i >= 0; i-- {
			ending[i]()
		}
	}()
	ending = append(ending, func() { root.End(trace.WithTimestamp(run.Ended)) })

	provider := providerOf(run.Backend)
	callCtx := map[int]context.Context{}
	reqCtx := map[int]context.Context{}
	for _, ri := range t.Requests {
		qctx, q := tr.Start(rctx, fmt.Sprintf("request %d", ri.Index), trace.WithTimestamp(ck.at(ri.FirstStep)),
			trace.WithAttributes(AttrRequest.Int(ri.Index)))
		reqCtx[ri.Index] = qctx
		if ri.Status != "" {
			q.SetAttributes(attribute.String("hookstudio.request.status", ri.Status), attribute.String("hookstudio.request.stopped_by", ri.StoppedBy))
		}
		for _, ci := range ri.Calls {
			c := &t.Calls[ci]
			model := c.Model
			if model == "" {
				model = "mock"
			}
			start, end := ck.at(c.Step), ck.at(c.Step+1)
			attrs := []attribute.KeyValue{semconv.GenAIOperationNameChat, semconv.GenAIRequestModel(model),
				semconv.GenAIProviderNameKey.String(provider), AttrRequest.Int(c.Request), AttrPhase.String(string(c.Phase))}
			if c.Round != nil {
				attrs = append(attrs, AttrRound.Int(*c.Round))
			}
			rc := ends[ci]
			if rc != nil {
				start, end = rc.StartTime, *rc.EndTime
				if rc.Model != "" {
					attrs[1] = semconv.GenAIRequestModel(rc.Model)
				}
				if rc.Usage != nil {
					attrs = append(attrs, semconv.GenAIUsageInputTokens(rc.Usage.Prompt), semconv.GenAIUsageOutputTokens(rc.Usage.Completion))
				}
				attrs = append(attrs, AttrAttempts.Int(len(rc.Attempts)))
				if rc.HTTPStatus != 0 {
					attrs = append(attrs, semconv.HTTPResponseStatusCode(rc.HTTPStatus))
				}
			}
			sctx, s := tr.Start(qctx, "chat "+model, trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithSpanKind(trace.SpanKindClient))
			if rc != nil {
				for i, a := range rc.Attempts {
					s.AddEvent("attempt", trace.WithTimestamp(a.Timestamp), trace.WithAttributes(attribute.Int("attempt", i+1),
						semconv.HTTPResponseStatusCode(a.StatusCode), attribute.String("reason", a.Reason)))
				}
				if rc.FirstByteTime != nil {
					s.AddEvent("first_byte", trace.WithTimestamp(*rc.FirstByteTime))
				}
			}
			if c.Error != "" {
				s.SetStatus(codes.Error, c.Error)
				s.SetAttributes(semconv.ErrorTypeKey.String("llm_error"))
			}
			callCtx[ci] = sctx
			ending = append(ending, func() { s.End(trace.WithTimestamp(end)) })
		}
		qEnd := ck.at(ri.LastStep + 1)
		ending = append(ending[:len(ending)-len(ri.Calls)], append([]func(){func() { q.End(trace.WithTimestamp(qEnd)) }}, ending[len(ending)-len(ri.Calls):]...)...)
	}

	// Tool calls and hook calls, placed by their steps.
	lastCall := -1
	hookOffset := map[int]time.Duration{}
	for _, st := range steps {
		switch st.Kind {
		case engine.StepLLMCall:
			if st.Call != nil {
				lastCall = *st.Call
			}
		case engine.StepToolCall:
			if st.Tool == "" {
				continue
			}
			parent := rctx
			if lastCall >= 0 {
				parent = parentOf(callCtx, lastCall, rctx)
			}
			_, s := tr.Start(parent, "execute_tool "+st.Tool, trace.WithTimestamp(ck.at(st.Index)),
				trace.WithAttributes(semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(st.Tool), AttrRequest.Int(st.Request)))
			s.End(trace.WithTimestamp(ck.at(st.Index + 1)))
		case engine.StepHookCall:
			hc := st.HookCall
			if hc == nil {
				continue
			}
			start := ck.at(st.Index)
			parent := parentOf(reqCtx, st.Request, rctx)
			if hc.System == "request" && len(hc.Input) > 0 {
				var rc requestContext
				if json.Unmarshal(hc.Input, &rc) == nil {
					parent = parentOf(callCtx, rc.Call, rctx)
					base := rc.StartTime
					if hc.Event == "request_end" && rc.EndTime != nil {
						base = *rc.EndTime
					}
					key := rc.Call*2 + boolInt(hc.Event == "request_end")
					start = base.Add(hookOffset[key])
					hookOffset[key] += dur(hc.DurationMS)
				}
			}
			attrs := []attribute.KeyValue{AttrHookSystem.String(hc.System), AttrHookEvent.String(hc.Event), AttrHookName.String(hc.Hook),
				AttrHookOutcome.String(string(hc.Outcome)), AttrHookPoint.String(string(hc.Point)), AttrRequest.Int(st.Request)}
			if hc.ExitCode != nil {
				attrs = append(attrs, attribute.Int("process.exit.code", *hc.ExitCode))
			}
			_, s := tr.Start(parent, fmt.Sprintf("hook %s.%s %s", hc.System, hc.Event, hc.Hook), trace.WithTimestamp(start), trace.WithAttributes(attrs...))
			switch hc.Outcome {
			case engine.OutcomeError, engine.OutcomeTimeout:
				s.SetStatus(codes.Error, hc.Error)
			}
			s.End(trace.WithTimestamp(start.Add(dur(hc.DurationMS))))
		}
	}
}

func parentOf(callCtx map[int]context.Context, call int, def context.Context) context.Context {
	if c, ok := callCtx[call]; ok {
		return c
	}
	return def
}

func dur(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// providerOf is gen_ai.provider.name for a backend.
func providerOf(backend string) string {
	p, _, _ := strings.Cut(backend, ":")
	switch p {
	case "openai":
		return "openai"
	case "anthropic":
		return "anthropic"
	case "", "mock":
		return "hookstudio.mock"
	}
	return p
}
