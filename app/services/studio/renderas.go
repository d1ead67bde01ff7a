package studio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"hookstudio/app/store/history"
)

// ErrNotTrustedToRender is returned when the folder's hooks may not run.
var ErrNotTrustedToRender = errors.New("trust the folder first: rendering runs its hooks")

// RenderAs plays the scenario file of the open folder once more with its
// executable hooks, rendering the agents' hook output as agent (a version
// such as claude-code@2.1.197), and keeps the run in the history: History
// compares it with another rendering of the same scenario, so an author
// sees what an agent upgrade changes for their hooks.
func (s *Service) RenderAs(ctx context.Context, file, agent string) (history.RunID, error) {
	return s.playAgain(ctx, file, false, func(job *simJob) error {
		job.agent = agent
		return nil
	}, "render as "+agent)
}

// playAgain plays the scenario file of the open folder once more, as the
// UI plays it (skills switched off left out, every hook afresh) with what
// prepare changes, and keeps the run in the history. needHooks: the folder
// must have executable hooks; any it has must be trusted.
func (s *Service) playAgain(ctx context.Context, file string, needHooks bool, prepare func(job *simJob) error, what string) (history.RunID, error) {
	if s.cfg.History == nil {
		return 0, errors.New("the run history is not available")
	}
	s.mu.Lock()
	i := slices.IndexFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == file })
	if i < 0 || !s.scenarios[i].info.Valid {
		s.mu.Unlock()
		return 0, fmt.Errorf("no valid scenario %s in the open folder", file)
	}
	if needHooks && !s.exec.present() || s.exec.present() && !s.trustedLocked() {
		s.mu.Unlock()
		return 0, ErrNotTrustedToRender
	}
	job := simJob{gen: -1, root: s.root, file: file, sc: s.scenarios[i].sc, set: s.set, disabled: maps.Clone(s.disabled),
		hooks: s.runHooksLocked(i)}
	root := s.root
	s.mu.Unlock()

	if err := prepare(&job); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	started := time.Now()
	// a job no simulation waits for (gen -1): nothing of it is shown live
	job.started = started
	tr, _, err := s.execute(ctx, job)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	id, err := s.cfg.History.SaveRun(context.WithoutCancel(ctx), history.RunInput{Trace: tr, ScenarioFile: file, ScenarioData: data,
		Backend: "mock", Source: history.SourceApp, Started: started, Ended: time.Now()})
	if err != nil {
		return 0, fmt.Errorf("%s: keep the run: %w", what, err)
	}
	s.cfg.Emit(EventRun, id)
	return id, nil
}
