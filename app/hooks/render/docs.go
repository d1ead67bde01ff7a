package render

import (
	"fmt"
	"os"
	"strings"
)

// Markers around a doc's generated section.
const (
	DocsBegin  = "<!-- renderings: generated from the bundled profile; do not edit -->\n"
	DocsFinish = "<!-- end renderings -->"
)

// UpdateDocs checks that file's generated section is want; with write it
// rewrites the section instead. It says whether the section was current.
func UpdateDocs(file, want string, write bool) (bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	doc := string(data)
	a, e := strings.Index(doc, DocsBegin), strings.Index(doc, DocsFinish)
	if a < 0 || e < a {
		return false, fmt.Errorf("%s has no %q … %q section", file, DocsBegin, DocsFinish)
	}
	if doc[a+len(DocsBegin):e] == want {
		return true, nil
	}
	if write {
		doc = doc[:a+len(DocsBegin)] + want + doc[e:]
		return false, os.WriteFile(file, []byte(doc), 0o644)
	}
	return false, nil
}
