package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/atomicfile"
)

// CodeInvalidSkillName is the NameError code of a skill folder name that
// cannot work: a path, a hidden folder the loader skips, or characters some
// file systems refuse.
const CodeInvalidSkillName = "invalid-skill-name"

// ErrExists is wrapped by ExistsError.
var ErrExists = errors.New("already exists")

// ExistsError is returned instead of overwriting a skill or file.
type ExistsError struct {
	Path string
}

func (e *ExistsError) Error() string { return fmt.Sprintf("%s already exists", e.Path) }

// Unwrap lets errors.Is(err, ErrExists) work.
func (e *ExistsError) Unwrap() error { return ErrExists }

// ValidateSkillName checks a skill folder name: non-empty (skills'
// empty-name code), one path element, not hidden (the loader skips dot
// folders), no characters Windows or macOS refuse in file names.
func ValidateSkillName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return &NameError{Name: name, Code: skills.CodeEmptyName, Msg: "a skill needs a non-empty folder name"}
	case name == "." || name == "..", strings.ContainsAny(name, `/\`):
		return &NameError{Name: name, Code: CodeInvalidSkillName, Msg: "a skill name is one folder name, without / or \\"}
	case strings.HasPrefix(name, "."):
		return &NameError{Name: name, Code: CodeInvalidSkillName, Msg: "a skill name cannot start with '.': hidden folders are not loaded"}
	case strings.ContainsAny(name, `:*?"<>|`) || strings.ContainsFunc(name, unicode.IsControl):
		return &NameError{Name: name, Code: CodeInvalidSkillName, Msg: `a skill name cannot contain control characters or any of : * ? " < > |`}
	case name != strings.TrimSpace(name) || strings.HasSuffix(name, "."):
		return &NameError{Name: name, Code: CodeInvalidSkillName, Msg: "a skill name cannot start or end with a space or end with '.'"}
	}
	return nil
}

// CreateSkill creates root/name/hooks/hooks.json holding New(): a minimal
// valid hooks.json with a "$schema" reference. An existing skill folder
// without hooks/ (or hooks/ without hooks.json) gets them; an existing
// hooks.json is an *ExistsError. It returns the path of hooks.json.
func CreateSkill(root, name string) (string, error) {
	if err := ValidateSkillName(name); err != nil {
		return "", fmt.Errorf("create skill: %w", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is not a folder", root)
		}
		return "", fmt.Errorf("create skill: skills root: %w", err)
	}
	hooksDir := filepath.Join(root, name, "hooks")
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		return "", fmt.Errorf("create skill %s: %w", name, err)
	}
	path := filepath.Join(hooksDir, "hooks.json")
	if _, err := os.Lstat(path); err == nil {
		return "", fmt.Errorf("create skill %s: %w", name, &ExistsError{Path: filepath.Join(name, "hooks", "hooks.json")})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("create skill %s: %w", name, err)
	}
	if err := atomicfile.Write(path, New("").Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("create skill %s: %w", name, err)
	}
	return path, nil
}
