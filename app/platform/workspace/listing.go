package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/process"
)

// ListingOptions bound a folder's reading for its listing.
type ListingOptions struct {
	// Skip are the names of folders an agent lists but never opens.
	Skip []string
	// Limit is how many entries are read at most (0: 10000): an agent
	// lists a few hundred.
	Limit int
	// GitTimeout bounds git's listing of the ignored files (0: 5 s).
	GitTimeout time.Duration
}

// Listing reads dir as an agent lists it (request.Tree): its files and
// folders breadth first, a folder whose name opts.Skip holds left
// unopened, symbolic links and other special files left out (Node.js
// reads them as neither), and in a git repository what its .gitignore
// files ignore marked. full is false when the limit left folders unread.
func Listing(ctx context.Context, dir string, opts ListingOptions) (root request.Node, full bool) {
	limit := opts.Limit
	if limit <= 0 {
		limit = 10000
	}
	ignored := gitIgnored(ctx, dir, opts.GitTimeout)
	root = request.Node{Name: filepath.Base(dir), Dir: true}
	type item struct {
		n   *request.Node
		rel string
	}
	queue := []item{{&root, ""}}
	read, full := 0, true
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if read >= limit {
			full = false
			break
		}
		ents, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(it.rel)))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.Type().IsRegular() && !e.IsDir() {
				continue
			}
			rel := e.Name()
			if it.rel != "" {
				rel = it.rel + "/" + e.Name()
			}
			key := rel
			if e.IsDir() {
				key += "/"
			}
			it.n.Children = append(it.n.Children, request.Node{Name: e.Name(), Dir: e.IsDir(), Ignored: ignored[key]})
			read++
		}
		for k := range it.n.Children {
			c := &it.n.Children[k]
			if !c.Dir || c.Ignored || slices.Contains(opts.Skip, c.Name) {
				continue
			}
			rel := c.Name
			if it.rel != "" {
				rel = it.rel + "/" + c.Name
			}
			queue = append(queue, item{c, rel})
		}
	}
	return root, full
}

// gitIgnored are the paths under dir (slash-separated, a folder's with a
// trailing '/') that git ignores there; none outside a git repository.
func gitIgnored(ctx context.Context, dir string, timeout time.Duration) map[string]bool {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	g := process.NewGroup()
	defer g.Close()
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := g.Run(rctx, process.Spec{Argv: []string{"git", "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"},
		Dir: dir, Env: gitEnv(), MaxStdout: 1 << 22, MaxStderr: 1 << 16})
	out := map[string]bool{}
	if res.Err != nil || res.ExitCode != 0 {
		return out
	}
	for _, p := range strings.Split(string(res.Stdout), "\x00") {
		if p != "" {
			out[p] = true
		}
	}
	return out
}

// AgentFolder are the slots a request model reads from the folder itself
// — its listing as the agent writes it (request.SlotTree), its context
// files' contents and the list of instruction files it sends
// (request.ListFiles) — and notes on where the agent may see the folder
// otherwise than the simulation does.
func AgentFolder(ctx context.Context, dir string, m *request.Model) (request.Values, []string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	v := m.FileValues(func(name string) (string, bool) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		return string(data), err == nil
	})
	if l, ok := m.Lists[request.ListFiles]; ok && len(l.Files) > 0 {
		var es []request.Entry
		for _, name := range l.Files {
			if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
				es = append(es, request.Entry{Name: name, Body: string(data), Kind: request.EntryFile})
			}
		}
		v[request.ListFiles] = m.RenderFiles(es)
	}
	var notes []string
	for _, f := range m.Files {
		for up := filepath.Dir(dir); ; up = filepath.Dir(up) {
			if _, err := os.Stat(filepath.Join(up, f.Name)); err == nil {
				notes = append(notes, "the agent may also read "+filepath.Join(up, f.Name)+", above the folder: the simulated request holds the folder's own only")
			}
			if up == filepath.Dir(up) {
				break
			}
		}
	}
	if m.Tree == nil {
		return v, notes
	}
	root, full := Listing(ctx, dir, ListingOptions{Skip: m.Tree.Ignored})
	if !full {
		notes = append(notes, "the folder has more entries than the simulation reads: its listing may end otherwise than the agent's")
	}
	for _, c := range root.Children {
		if !c.Dir && strings.HasSuffix(c.Name, "ignore") && c.Name != ".gitignore" && strings.HasPrefix(c.Name, ".") {
			notes = append(notes, "the folder has "+c.Name+": the agent may leave out of its listing what it ignores, the simulation lists it")
		}
	}
	v[request.SlotTree] = m.Tree.Render(root, dir)
	return v, notes
}
