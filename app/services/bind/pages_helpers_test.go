package bind

import (
	"testing"

	"hookstudio/app/services/studio"
)

// whole is a stored run opened in pages with every step and call read:
// what the tests look at of a stored run's view.
type whole struct {
	PagedRun
	Steps []studio.PageStep
	Calls []studio.Call
}

func openWhole(t *testing.T, h *History, id int64) whole {
	t.Helper()
	head, err := h.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(head.Handle)
	w := whole{PagedRun: head}
	if w.Steps, err = h.Steps(head.Handle, 0, head.Head.Steps); err != nil {
		t.Fatal(err)
	}
	if w.Calls, err = h.Calls(head.Handle, 0, head.Head.Calls); err != nil {
		t.Fatal(err)
	}
	return w
}

// node is the id of step i's node in the run's loop ("" none).
func (w whole) node(i int) string {
	if n := w.Steps[i].Node; n >= 0 {
		return w.Head.Loop.Nodes[n].ID
	}
	return ""
}
