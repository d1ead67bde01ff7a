package hookdecl

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Bundle is a folder an agent installs as a whole — a Copilot CLI plugin,
// a Gemini CLI extension — known by its manifest, with its hooks file
// beside it: the opened folder itself, or a skill folder of it.
type Bundle struct {
	// Manifest marks the folder ("plugin.json").
	Manifest string
	// Hooks is its hooks file, relative to the folder ("hooks.json").
	Hooks string
}

// Is says whether dir is such a folder.
func (b Bundle) Is(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, b.Manifest))
	return err == nil
}

// File says whether file (root-relative) is the hooks file of a bundle in
// root: the root's own or a skill folder's.
func (b Bundle) File(root, file string) bool {
	if root == "" {
		return false
	}
	if file == b.Hooks {
		return b.Is(root)
	}
	dir, ok := strings.CutSuffix(file, "/"+b.Hooks)
	return ok && dir != "" && !strings.Contains(dir, "/") && !strings.HasPrefix(dir, ".") && b.Is(filepath.Join(root, dir))
}

// List lists a bundle's hooks file that exists: the root's (skill "") or
// a skill folder's.
func (b Bundle) List(root, skill string) []string {
	rel := path.Join(skill, b.Hooks)
	if skill == "" {
		rel = b.Hooks
	}
	if b.File(root, rel) && Regular(filepath.Join(root, filepath.FromSlash(rel))) {
		return []string{rel}
	}
	return nil
}

// Script says whether file is a script of a bundle in root: under its
// hooks/ or scripts/ folder, and not its hooks file.
func (b Bundle) Script(root, file string) bool {
	parts := strings.Split(file, "/")
	switch {
	case root == "" || b.File(root, file):
		return false
	case len(parts) >= 2 && (parts[0] == "hooks" || parts[0] == "scripts") && b.Is(root):
		return true
	case len(parts) >= 3 && (parts[1] == "scripts" || parts[1] == "hooks") && !strings.HasPrefix(parts[0], ".") && b.Is(filepath.Join(root, parts[0])):
		return true
	}
	return false
}

// Folders are a skill folder's folders besides hooks/ that hold a
// bundle's scripts.
func (b Bundle) Folders(root, skill string) []string {
	if b.Is(filepath.Join(root, skill)) {
		return []string{"scripts"}
	}
	return nil
}

// Scripts says whether file is under dir/hooks/ of the opened folder or of
// a skill folder (".codex" for .codex/hooks/): where a project of the
// agent keeps its hook scripts.
func Scripts(dir string) func(root, file string) bool {
	return func(_, file string) bool {
		parts := strings.Split(file, "/")
		if len(parts) > 0 && !strings.HasPrefix(parts[0], ".") {
			parts = parts[1:]
		}
		return len(parts) >= 3 && parts[0] == dir && parts[1] == "hooks"
	}
}
