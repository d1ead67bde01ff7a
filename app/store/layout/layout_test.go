package layout

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	path := DefaultPath(filepath.Join(t.TempDir(), "data"))
	want := Layout{SkillsWidth: 320, EditorWidth: 600, MessagesWidth: 410, FlowHeight: 0.22, BottomHeight: 0.31, BottomCollapsed: true, TrustRead: "abc", AgentContext: true}
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Load = %+v, want %+v", got, want)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		file    string // "" writes no file
		want    Layout
		wantErr bool
	}{
		{"no file: the defaults", "", Layout{}, false},
		{"damaged: the defaults", `{"skills_width": `, Layout{}, true},
		{"a wrong type: the defaults", `{"skills_width": "wide"}`, Layout{}, true},
		{"out of bounds: that field only", `{"skills_width": -4, "messages_width": 400, "flow_height": 3, "bottom_height": 0.3}`, Layout{MessagesWidth: 400, BottomHeight: 0.3}, true},
		{"unknown fields are ignored", `{"skills_width": 300, "future": true}`, Layout{SkillsWidth: 300}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Load(path)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Load error = %v, want an error: %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Load = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	l := Layout{SkillsWidth: -1, EditorWidth: MaxWidth + 1, MessagesWidth: 300, FlowHeight: math.NaN(), BottomHeight: 1.5, TrustRead: strings.Repeat("x", MaxTrustReadLen+1)}
	err := l.Validate()
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("Validate = %v, want ErrInvalid", err)
	}
	for _, field := range []string{"skills_width", "editor_width", "flow_height", "bottom_height", "trust_read"} {
		if !strings.Contains(err.Error(), field) {
			t.Errorf("Validate does not name %s: %v", field, err)
		}
	}
	if strings.Contains(err.Error(), "messages_width") {
		t.Errorf("Validate names the valid messages_width: %v", err)
	}
}

func TestSaveRefusesInvalidAndKeepsTheOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := Save(path, Layout{SkillsWidth: 300}); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, Layout{FlowHeight: 2}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Save = %v, want ErrInvalid", err)
	}
	got, err := Load(path)
	if err != nil || got != (Layout{SkillsWidth: 300}) {
		t.Errorf("Load = %+v, %v; want the layout saved before", got, err)
	}
}
