// Package app_test checks the rules the README's Layout section states about
// app/, from the source itself, so that a new package or hook system cannot
// break them unnoticed.
package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "hookstudio/app/"

// pkg is one directory's non-test Go files: what a build of it sees.
type pkg struct {
	dir          string // relative to app/, slash-separated
	name         string
	doc          bool
	registration bool // declares func Registration: a hook system
	imports      map[string]bool
}

func loadPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	out := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := out[dir]
		if p == nil {
			p = &pkg{dir: dir, name: f.Name.Name, imports: map[string]bool{}}
			out[dir] = p
		}
		if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" {
			p.doc = true
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			p.imports[path] = true
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "Registration" {
				p.registration = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found %d packages under app/: the walk is wrong", len(out))
	}
	return out
}

func TestEveryPackageSaysWhatItProvides(t *testing.T) {
	for _, p := range sorted(loadPackages(t)) {
		if !p.doc {
			t.Errorf("app/%s (package %s) has no package doc comment", p.dir, p.name)
		}
		switch p.name {
		case "util", "utils", "common", "helpers", "misc":
			t.Errorf("app/%s: package %s names no role; name it for what it provides", p.dir, p.name)
		}
	}
}

// Domain packages never reach the Wails runtime: events leave through an
// injected emitter, and only the bound layer knows Wails.
func TestOnlyTheBoundLayerImportsWails(t *testing.T) {
	for _, p := range sorted(loadPackages(t)) {
		if p.dir == "services/bind" {
			continue
		}
		for imp := range p.imports {
			if strings.HasPrefix(imp, "github.com/wailsapp/") {
				t.Errorf("app/%s imports %s", p.dir, imp)
			}
		}
	}
}

// A hook system is its folder and one registration; what systems share
// lives in neutral packages, so no system imports another.
func TestNoHookSystemImportsAnother(t *testing.T) {
	pkgs := loadPackages(t)
	systems := map[string]bool{}
	for dir, p := range pkgs {
		if p.registration && strings.HasPrefix(dir, "hooks/") {
			systems[module+dir] = true
		}
	}
	if len(systems) < 4 {
		t.Fatalf("found %d hook systems (packages under app/hooks declaring Registration), want every registered one", len(systems))
	}
	for _, p := range sorted(pkgs) {
		if !systems[module+p.dir] {
			continue
		}
		for imp := range p.imports {
			if systems[imp] {
				t.Errorf("hook system app/%s imports hook system %s: move what they share to a neutral package", p.dir, strings.TrimPrefix(imp, "hookstudio/"))
			}
		}
	}
}

func sorted(m map[string]*pkg) []*pkg {
	out := make([]*pkg, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}

// The agent CLIs as data (app/agentdata: renderings, request models,
// recipes, telling agents apart) sit below the hook systems, the engine and
// capture, which read them; what runs CLIs or draws their loops
// (app/agents: calibration against capture, locating CLIs, loops over the
// engine's steps) sits above them. So no package of app/agents is reached
// from a package it imports: no package outside app/agents, app/services
// and cmd imports one, and app/agentdata imports nothing above it.
func TestAgentLayers(t *testing.T) {
	pkgs := loadPackages(t)
	above := func(imp string) bool { return strings.HasPrefix(imp, module+"agents/") }
	for _, p := range sorted(pkgs) {
		if strings.HasPrefix(p.dir, "agents/") || strings.HasPrefix(p.dir, "services/") {
			continue
		}
		for imp := range p.imports {
			if above(imp) {
				t.Errorf("app/%s imports %s: app/agents sits above the engine, hooks and capture; move what it needs into app/agentdata", p.dir, strings.TrimPrefix(imp, "hookstudio/"))
			}
		}
	}
	// every package an app/agents package reaches stays below it
	var reach func(dir string, seen map[string]bool)
	reach = func(dir string, seen map[string]bool) {
		p := pkgs[dir]
		if p == nil || seen[dir] {
			return
		}
		seen[dir] = true
		for imp := range p.imports {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				reach(rel, seen)
			}
		}
	}
	for _, p := range sorted(pkgs) {
		if !strings.HasPrefix(p.dir, "agents/") {
			continue
		}
		seen := map[string]bool{}
		for imp := range p.imports {
			if rel, ok := strings.CutPrefix(imp, module); ok && !strings.HasPrefix(rel, "agents/") {
				reach(rel, seen)
			}
		}
		for dir := range seen {
			for imp := range pkgs[dir].imports {
				if above(imp) {
					t.Errorf("app/%s imports app/%s, which imports %s: a cycle between app/agents and what it stands on", p.dir, dir, strings.TrimPrefix(imp, "hookstudio/"))
				}
			}
		}
	}
	for dir, p := range pkgs {
		if !strings.HasPrefix(dir, "agentdata/") {
			continue
		}
		for imp := range p.imports {
			if rel, ok := strings.CutPrefix(imp, module); ok && !strings.HasPrefix(rel, "agentdata/") && !strings.HasPrefix(rel, "format/") {
				t.Errorf("app/%s imports %s: agent data stands on formats only", dir, imp)
			}
		}
	}
}
