package sessions

import (
	"strings"
	"testing"
)

// The seed leaves screenshots out of an export (they showed the page to the person building
// the scenario) and carries the session's browser options other than headless: of those, a
// scenario file holds the viewport.
func TestExportLeavesOutScreenshotsAndKeepsTheViewport(t *testing.T) {
	const page = site + "/form"
	rec := record(page)
	rec.Options.Viewport = "800x600"
	x := exportOK(t, rec, []Entry{
		done(0, typeUser, page),
		done(1, `{"op":"screenshot"}`, page),
		done(2, clickSign, page),
	}, ExportOptions{})
	if x.Operations != 3 {
		t.Errorf("%d operations, want the navigate and the two acts:\n%s", x.Operations, x.File)
	}
	if strings.Contains(string(x.File), "screenshot") {
		t.Errorf("the screenshot was exported:\n%s", x.File)
	}
	if !strings.Contains(compact(t, x.File), `"viewport":{"width":800,"height":600}`) {
		t.Errorf("the session's viewport is not the file's:\n%s", x.File)
	}

	rec.Options.Viewport = ""
	if x := exportOK(t, rec, []Entry{done(0, typeUser, page)}, ExportOptions{}); strings.Contains(string(x.File), "viewport") {
		t.Errorf("a session without --viewport exported one:\n%s", x.File)
	}
}

// An exported operation reads as a person writes one: id and op, the words before their
// recording, then the rest.
func TestExportOrdersAnOperationsMembers(t *testing.T) {
	got := string(ordered([]byte(`{"when":{"kind":"title","value":"T"},"words":"Click Go","request":{"action":"click"},"op":"act","id":"go","zeta":1}`)))
	want := `{"id":"go","op":"act","words":"Click Go","request":{"action":"click"},"when":{"kind":"title","value":"T"},"zeta":1}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
