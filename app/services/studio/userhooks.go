package studio

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"hookstudio/app/hooks/registry"
	"hookstudio/app/store/atomicfile"
)

// UserHooksFile is the app's user-level hooks setting in the data folder.
const UserHooksFile = "user-hooks.json"

// Keys of the user-level files the settings dialog names (the hook
// systems' registry.UserFile.Setting).
const (
	userCommandHooks  = "file"                 // jcli's user-level hooks.yaml
	userClaudeSetting = "claude_user_settings" // Claude Code's ~/.claude/settings.json
)

// UserHooksSetting is the hook systems' user-level files of the app's
// settings, by each system's key (registry.UserFile.Setting): its hooks run
// first, before the project's and the skills', in every folder (the
// user-level jcli hooks.yaml, design-hooks.md: "from the app's user-level
// file"; Claude Code's ~/.claude/settings.json, which Claude Code reads
// before the project's). Their commands are listed in the trust prompt
// with the folder's, so a folder is trusted with them (and a change to
// them asks again).
type UserHooksSetting struct {
	path string

	mu    sync.Mutex
	files map[string]string
}

// LoadUserHooks reads the setting from dataDir (none yet: no user file).
func LoadUserHooks(dataDir string) (*UserHooksSetting, error) {
	u := &UserHooksSetting{path: filepath.Join(dataDir, UserHooksFile), files: map[string]string{}}
	files := map[string]string{}
	_, err := atomicfile.ReadJSON(u.path, &files)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return u, fmt.Errorf("user hooks setting %s: %w", u.path, err)
	case err != nil:
		return u, fmt.Errorf("user hooks setting: %w", err)
	}
	u.files = files
	return u, nil
}

// Files are the user-level files by system name, for loading the hooks
// of reg's systems ("" none). A nil setting has none.
func (u *UserHooksSetting) Files(reg *registry.Registry) map[string]string {
	out := map[string]string{}
	if u == nil {
		return out
	}
	for _, sys := range reg.Systems() {
		if sys.User != nil {
			out[sys.Name] = u.file(sys.User.Setting)
		}
	}
	return out
}

func (u *UserHooksSetting) file(key string) string {
	if u == nil {
		return ""
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.files[key]
}

// setFile checks a user-level file's path (userFile: what and name for its
// messages) and saves it under key atomically.
func (u *UserHooksSetting) setFile(key, file, what, name string) error {
	file, err := userFile(file, what, name)
	if err != nil {
		return err
	}
	return u.save(key, file)
}

// save keeps a checked path under key, atomically.
func (u *UserHooksSetting) save(key, file string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	files := maps.Clone(u.files)
	files[key] = file
	if err := atomicfile.WriteJSON(u.path, files, 0o644); err != nil {
		return fmt.Errorf("user hooks setting: %w", err)
	}
	u.files = files
	return nil
}

// Get is the user-level hooks.yaml ("" none). A nil setting has none.
func (u *UserHooksSetting) Get() string { return u.file(userCommandHooks) }

// Set changes the user-level hooks.yaml ("" none) and saves the setting
// atomically. The path must be absolute (~/ is expanded); the file need not
// exist yet (a missing file has no hooks).
func (u *UserHooksSetting) Set(file string) error {
	return u.setFile(userCommandHooks, file, "user hooks file", "hooks.yaml")
}

// Claude is Claude Code's user-level settings.json ("" none). A nil
// setting has none.
func (u *UserHooksSetting) Claude() string { return u.file(userClaudeSetting) }

// SetClaude changes Claude Code's user-level settings.json ("" none), with
// the rules of Set.
func (u *UserHooksSetting) SetClaude(file string) error {
	return u.setFile(userClaudeSetting, file, "claude code user settings", "settings.json")
}

// UserFile is one hook system's user-level file (or folder) as the
// settings dialog shows it.
type UserFile struct {
	System string `json:"system"`
	Title  string `json:"title"`
	Usage  string `json:"usage"`
	File   string `json:"file"`
	Folder bool   `json:"folder"`
	// Name is what the form asks for ("config.toml", "hooks folder").
	Name string `json:"name"`
}

// UserFiles lists the user-level files of reg's agent CLIs' systems
// (Claude Code's and the jcli hooks.yaml have settings of their own).
func (u *UserHooksSetting) UserFiles(reg *registry.Registry) []UserFile {
	out := []UserFile{}
	for _, sys := range reg.Systems() {
		if sys.User == nil || sys.Agent == "" || sys.User.Setting == userClaudeSetting {
			continue
		}
		out = append(out, UserFile{System: sys.Name, Title: sys.Title, Usage: sys.User.Usage, File: u.file(sys.User.Setting), Folder: sys.User.Folder, Name: sys.User.Name})
	}
	return out
}

// SetUserFile changes the user-level file (or folder) of reg's system
// named system ("" none), with the rules of Set; a folder must not be a
// file.
func (u *UserHooksSetting) SetUserFile(reg *registry.Registry, system, file string) error {
	sys, ok := reg.System(system)
	if !ok || sys.User == nil {
		return fmt.Errorf("%w: %q has no user-level file", ErrNoUserFile, system)
	}
	if !sys.User.Folder {
		return u.setFile(sys.User.Setting, file, sys.Title+" user file", "file")
	}
	dir, err := userPath(file, sys.Title+" user folder")
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s user folder %s is a file; name the folder that holds its *.json files", sys.Title, dir)
	}
	return u.save(sys.User.Setting, dir)
}

// ErrNoUserFile is wrapped when a system has no user-level file.
var ErrNoUserFile = errors.New("no user-level file")

// userPath is a user-level path: absolute after ~/ expansion; "" stays "".
func userPath(file, what string) (string, error) {
	file = strings.TrimSpace(file)
	if rest, ok := strings.CutPrefix(file, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		file = filepath.Join(home, rest)
	}
	if file != "" && !filepath.IsAbs(file) {
		return "", fmt.Errorf("%s %q: give an absolute path", what, file)
	}
	if file == "" {
		return "", nil
	}
	return filepath.Clean(file), nil
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
