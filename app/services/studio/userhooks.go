package studio

import (
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// UserHooksFile is the app's user-level hooks setting in the data folder.
const UserHooksFile = "user-hooks.json"

// UserHooksSetting is the user-level jcli hooks.yaml of the app's settings
// (design-hooks.md: "from the app's user-level file"): its hooks run
// first, before the project's and the skills', in every folder. Its
// commands are listed in the trust prompt with the folder's, so a folder
// is trusted with them (and a change to them asks again).
//
// The same setting holds Claude Code's user-level settings.json
// (~/.claude/settings.json, issue 19): Claude Code reads it before the
// project's .claude/settings.json, so its hooks run in every folder too and
// are trusted with the folder in the same way.
type UserHooksSetting struct {
	path string

	mu     sync.Mutex
	file   string
	claude string
}

type userHooksJSON struct {
	File   string `json:"file"`
	Claude string `json:"claude_user_settings,omitempty"`
}

// LoadUserHooks reads the setting from dataDir (none yet: no user file).
func LoadUserHooks(dataDir string) (*UserHooksSetting, error) {
	u := &UserHooksSetting{path: filepath.Join(dataDir, UserHooksFile)}
	var v userHooksJSON
	_, err := atomicfile.ReadJSON(u.path, &v)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return u, fmt.Errorf("user hooks setting %s: %w", u.path, err)
	case err != nil:
		return u, fmt.Errorf("user hooks setting: %w", err)
	}
	u.file, u.claude = v.File, v.Claude
	return u, nil
}

// Get is the user-level hooks.yaml ("" none). A nil setting has none.
func (u *UserHooksSetting) Get() string {
	if u == nil {
		return ""
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.file
}

// Set changes the user-level hooks.yaml ("" none) and saves the setting
// atomically. The path must be absolute (~/ is expanded); the file need not
// exist yet (a missing file has no hooks).
func (u *UserHooksSetting) Set(file string) error {
	file, err := userFile(file, "user hooks file", "hooks.yaml")
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := u.save(userHooksJSON{File: file, Claude: u.claude}); err != nil {
		return err
	}
	u.file = file
	return nil
}

// Claude is Claude Code's user-level settings.json ("" none). A nil
// setting has none.
func (u *UserHooksSetting) Claude() string {
	if u == nil {
		return ""
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.claude
}

// SetClaude changes Claude Code's user-level settings.json ("" none), with
// the rules of Set.
func (u *UserHooksSetting) SetClaude(file string) error {
	file, err := userFile(file, "claude code user settings", "settings.json")
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := u.save(userHooksJSON{File: u.file, Claude: file}); err != nil {
		return err
	}
	u.claude = file
	return nil
}

// userFile checks a user-level file's path: absolute after ~/ expansion,
// not a folder; "" stays "".
func userFile(file, what, name string) (string, error) {
	file = strings.TrimSpace(file)
	if rest, ok := strings.CutPrefix(file, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		file = filepath.Join(home, rest)
	}
	if file == "" {
		return "", nil
	}
	if !filepath.IsAbs(file) {
		return "", fmt.Errorf("%s %q: give an absolute path", what, file)
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return "", fmt.Errorf("%s %s is a folder; name the %s in it", what, file, name)
	}
	return filepath.Clean(file), nil
}

// save writes the setting atomically; u.mu is held.
func (u *UserHooksSetting) save(v userHooksJSON) error {
	if err := atomicfile.WriteJSON(u.path, v, 0o644); err != nil {
		return fmt.Errorf("user hooks setting: %w", err)
	}
	return nil
}

// WithUserHooks makes runs read the setting's user-level hooks.yaml.
func WithUserHooks(u *UserHooksSetting) LoaderOption {
	return func(h *hooksetsSet) { h.user = u }
}
