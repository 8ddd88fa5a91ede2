package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Every look describes one document: on a page that keeps navigating by itself, an
// observe's URL, title and outline all name the same page, never the old page's URL and
// title with the new page's tree (which a session's "page after" showed after a click that
// navigated).
func TestObserveDescribesOneDocument(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/flip/0"}); err != nil {
		t.Fatal(err)
	}
	mixed, looks := 0, 0
	for i := 0; i < 60; i++ {
		ob, err := transport.Dispatch(bg, rt, transport.Observe{})
		if err != nil {
			continue // a look the navigation cut short says so; it is not a mixed look
		}
		var n int
		if _, err := fmt.Sscanf(ob.Title, "Flip %d", &n); err != nil {
			continue // between documents: no title yet
		}
		looks++
		heading := fmt.Sprintf(`heading[1] "Flip %d"`, n)
		if !strings.HasSuffix(ob.URL, fmt.Sprintf("/flip/%d", n)) || (ob.Text != "" && !strings.Contains(ob.Text, heading)) {
			mixed++
			t.Logf("look %d: url %s, title %q, outline:\n%s", i, ob.URL, ob.Title, ob.Text)
		}
	}
	if mixed > 0 {
		t.Fatalf("%d of %d looks mixed two documents", mixed, looks)
	}
	if looks < 10 {
		t.Fatalf("only %d looks saw a page; the test proves nothing", looks)
	}
}
