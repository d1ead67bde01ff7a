// Package hostmode chooses, where a hosted program's document (the seed)
// and its code disagree, which one the simulation follows, and reads that
// choice from a folder's settings.
package hostmode

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
)

// Mode is which of the two a simulation follows.
type Mode string

const (
	// Code behaves as the program's public code does (the default).
	Code Mode = "code"
	// Document behaves as the seed document describes.
	Document Mode = "document"
)

// ErrUnknown is returned for a mode other than code or document.
var ErrUnknown = errors.New("unknown host behaviour")

// Parse reads a mode; "" is the default, Code.
func Parse(s string) (Mode, error) {
	switch Mode(s) {
	case "", Code:
		return Code, nil
	case Document:
		return Document, nil
	}
	return Code, fmt.Errorf("%w %q: use code or document", ErrUnknown, s)
}

// Other is the mode not chosen.
func (m Mode) Other() Mode {
	if m == Document {
		return Code
	}
	return Document
}

// File is the folder setting, relative to the folder's root.
const File = ".hookstudio/settings.yaml"

// Load reads the folder's host_behaviour setting (Code when the file or
// the key is absent). A bad value is a diagnostic at its position, and the
// default is used.
func Load(root string) (Mode, []diag.Diagnostic, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(File)))
	if errors.Is(err, fs.ErrNotExist) {
		return Code, nil, nil
	}
	if err != nil {
		return Code, nil, fmt.Errorf("read folder settings: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Code, []diag.Diagnostic{{File: File, Line: 1, Column: 1, Severity: diag.Error, Code: "settings-yaml",
			Message: fmt.Sprintf("%s is not valid YAML (%v); fix it or delete it", File, err)}}, nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return Code, nil, nil
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value != "host_behaviour" {
			continue
		}
		mode, err := Parse(v.Value)
		if err != nil {
			return Code, []diag.Diagnostic{{File: File, Line: v.Line, Column: v.Column, Severity: diag.Error, Code: "host-behaviour",
				Message: fmt.Sprintf("host_behaviour %q: use code (as the programs' code does) or document (as the seeds describe)", v.Value)}}, nil
		}
		return mode, nil, nil
	}
	return Code, nil, nil
}

// Set returns the folder settings file's text (data; nil when there is none)
// with host_behaviour set to m, keeping its other keys and comments. A file
// that is not a YAML mapping is an error: it is left for the user to fix.
func Set(data []byte, m Mode) ([]byte, error) {
	if _, err := Parse(string(m)); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid YAML, so it is left as it is (fix it in the editor): %w", File, err)
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping of settings, so it is left as it is (fix it in the editor)", File)
	}
	set := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "host_behaviour" {
			top.Content[i+1].SetString(string(m))
			set = true
		}
	}
	if !set {
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "host_behaviour"}, &yaml.Node{Kind: yaml.ScalarNode, Value: string(m)})
	}
	return yaml.Marshal(&doc)
}
