package studio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
type UserHooksSetting struct {
	path string

	mu   sync.Mutex
	file string
}

type userHooksJSON struct {
	File string `json:"file"`
}

// LoadUserHooks reads the setting from dataDir (none yet: no user file).
func LoadUserHooks(dataDir string) (*UserHooksSetting, error) {
	u := &UserHooksSetting{path: filepath.Join(dataDir, UserHooksFile)}
	data, err := os.ReadFile(u.path)
	if errors.Is(err, fs.ErrNotExist) {
		return u, nil
	}
	if err != nil {
		return u, fmt.Errorf("user hooks setting: %w", err)
	}
	var v userHooksJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return u, fmt.Errorf("user hooks setting %s: %w", u.path, err)
	}
	u.file = v.File
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
	file = strings.TrimSpace(file)
	if rest, ok := strings.CutPrefix(file, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("user hooks file: %w", err)
		}
		file = filepath.Join(home, rest)
	}
	if file != "" {
		if !filepath.IsAbs(file) {
			return fmt.Errorf("user hooks file %q: give an absolute path", file)
		}
		if fi, err := os.Stat(file); err == nil && fi.IsDir() {
			return fmt.Errorf("user hooks file %s is a folder; name the hooks.yaml in it", file)
		}
		file = filepath.Clean(file)
	}
	data, err := json.MarshalIndent(userHooksJSON{File: file}, "", "  ")
	if err != nil {
		return fmt.Errorf("user hooks setting: %w", err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := writeFileAtomic(u.path, data); err != nil {
		return fmt.Errorf("user hooks setting: %w", err)
	}
	u.file = file
	return nil
}

// WithUserHooks makes runs read the setting's user-level hooks.yaml.
func WithUserHooks(u *UserHooksSetting) LoaderOption {
	return func(h *hooksetsSet) { h.user = u }
}
