package workspace

import (
	"os"
	"path/filepath"

	"hookstudio/app/agentdata/request"
)

// Folder is dir as a request.Tree reads it: its entries, a folder's read
// when the tree reaches it (links followed as the agents' readdir does
// not: a link is neither file nor folder).
func Folder(dir string) request.Node {
	return request.Node{Name: filepath.Base(dir), Dir: true, Kids: func() []request.Node { return readFolder(dir) }}
}

func readFolder(dir string) []request.Node {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []request.Node
	for _, e := range ents {
		switch {
		case e.Type().IsRegular():
			out = append(out, request.Node{Name: e.Name()})
		case e.IsDir():
			out = append(out, Folder(filepath.Join(dir, e.Name())))
		}
	}
	return out
}

// Snapshot is every entry under dir by its slash path, a folder's ending
// in "/": a folder as it stood, for request.NodeOf.
func Snapshot(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			out = append(out, rel+"/")
		case d.Type().IsRegular():
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// ListValues are the values of m's lists that the folder holds: the
// instruction files the agent sends (request.ListFiles) and the folder's
// tree (request.ListTree).
func ListValues(m *request.Model, dir string) request.Values {
	v := request.Values{}
	if l, ok := m.Lists[request.ListFiles]; ok && len(l.Files) > 0 {
		var es []request.Entry
		for _, name := range l.Files {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				continue
			}
			es = append(es, request.Entry{Name: name, Body: string(data), Kind: request.EntryFile})
		}
		v[request.ListFiles] = m.RenderFiles(es)
	}
	if l, ok := m.Lists[request.ListTree]; ok && l.Tree != nil {
		v[request.ListTree] = l.Tree.Draw(Folder(dir))
	}
	return v
}
