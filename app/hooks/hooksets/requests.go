package hooksets

import (
	"fmt"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/reqhook"
)

// requestSet is the request hooks (seed 004) of a Set: what Load read,
// built into a reqhook.Host per run by RequestHooks.
type requestSet struct {
	root    string
	cfg     *reqhook.Config
	sc      *scenario.Scenario
	trusted bool
}

// loadRequests reads the request hooks files under root (drafts instead
// of the files they name); their commands join the trust prompt's list.
func (s *Set) loadRequests(root string, drafts map[string][]byte, sc *scenario.Scenario, trusted bool) error {
	cfg, err := reqhook.LoadDrafts(root, drafts)
	if err != nil {
		return fmt.Errorf("load hooks: %w", err)
	}
	s.req = requestSet{root: root, cfg: cfg, sc: sc, trusted: trusted}
	s.diags = append(s.diags, cfg.Diagnostics...)
	diag.Sort(s.diags)
	for _, hs := range [][]reqhook.Hook{cfg.Start, cfg.End} {
		for _, h := range hs {
			c := cmdhook.Command{Source: h.Source, Event: cmdhook.Event("request: " + h.Event), Hook: h.Name,
				Skill: h.Skill, Command: h.Command, Dir: h.Dir}
			s.commands = append(s.commands, c)
			s.folder = append(s.folder, c)
		}
	}
	return nil
}

// RequestRun says how a run reaches its model, for the RequestContext.
type RequestRun struct {
	// Backend is "mock" or "PROVIDER:PROFILE" (as the history keeps it).
	Backend string
	Email   string // the profile's account e-mail, shown masked ("" none)
	// Policy is the settings' policy hook (nil: the scenario's
	// request_policy, if any).
	Policy  *reqhook.Policy
	Counter reqhook.TokenCounter // usage for models that report none
	RunID   string
}

// RequestHooks returns the request hook system for one run, or nil when
// the run needs none (no hooks declared, no policy, no scripted attempts),
// so such runs stay exactly as before. The caller wraps its model with
// Host.Model and appends the Host last to Config.Handlers (innermost).
// A Set loaded without trust never returns declared hooks.
func (s *Set) RequestHooks(run RequestRun) *reqhook.Host {
	policy := run.Policy
	if policy == nil {
		policy = reqhook.PolicyFromScenario(s.req.sc, nil)
	}
	cfg := s.req.cfg
	if !s.req.trusted {
		cfg = nil
	}
	if !reqhook.Needed(cfg, s.req.sc, policy) {
		return nil
	}
	opts := reqhook.Options{Root: s.req.root, Config: cfg, Scenario: s.req.sc, Policy: policy, Counter: run.Counter, RunID: run.RunID}
	if provider, profile, ok := cutBackend(run.Backend); ok {
		opts.Real, opts.Streaming, opts.Credential, opts.Email = true, true, profile, run.Email
		opts.Route = provider + ".chat"
		if provider == "anthropic" {
			opts.Route = "anthropic.messages"
		}
	}
	return reqhook.New(opts)
}

// WithRequestHooks wraps cfg's model and appends the request hooks as the
// innermost handler when the run needs them.
func (s *Set) WithRequestHooks(cfg *engine.Config, run RequestRun) *reqhook.Host {
	h := s.RequestHooks(run)
	if h != nil {
		cfg.Model = h.Model(cfg.Model)
		cfg.Handlers = append(cfg.Handlers, h)
	}
	return h
}

func cutBackend(b string) (provider, profile string, ok bool) {
	for i := 0; i < len(b); i++ {
		if b[i] == ':' {
			return b[:i], b[i+1:], true
		}
	}
	return "", "", false
}

// requestFingerprint joins the request hooks' files to the trust
// fingerprint fp.
func (s *Set) requestFingerprint(fp string) string {
	if s.req.cfg == nil || s.req.cfg.Fingerprint == "" {
		return fp
	}
	return fp + "+req:" + s.req.cfg.Fingerprint
}

// requestInfos describes the request hooks for the skills panel.
func (s *Set) requestInfos() []engine.HookInfo {
	if s.req.cfg == nil {
		return nil
	}
	return s.req.cfg.Infos()
}
