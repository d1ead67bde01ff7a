package bind

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/store/layout"
)

func TestLayoutGetSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), layout.FileName)
	b := NewLayout(path)
	if got, err := b.Get(); err != nil || got != (layout.Layout{}) {
		t.Fatalf("Get on first start = %+v, %v; want the defaults", got, err)
	}
	want := layout.Layout{SkillsWidth: 330, FlowHeight: 0.2, FlowCollapsed: true}
	if _, err := b.Set(want); err != nil {
		t.Fatal(err)
	}
	// another start reads what the last one left
	if got, err := NewLayout(path).Get(); err != nil || got != want {
		t.Errorf("Get = %+v, %v; want %+v", got, err, want)
	}
	if _, err := b.Set(layout.Layout{BottomHeight: -1}); !errors.Is(err, layout.ErrInvalid) {
		t.Errorf("Set of an invalid layout = %v, want ErrInvalid", err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(); err != nil || got != (layout.Layout{}) {
		t.Errorf("Get of a damaged file = %+v, %v; want the defaults and no error", got, err)
	}
}
