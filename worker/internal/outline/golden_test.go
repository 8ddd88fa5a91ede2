package outline_test

import (
	"encoding/json"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from real Chromium")

// hostPlaceholder stands for the fixture server's host:port, which changes every run.
const hostPlaceholder = "FIXTURE"

// outlineHidden is what no outline of the fixture site may contain: the values of fields
// and text no one sees. From /read's list, three markers are left out on purpose:
// SELECT-UNSELECTED-OPTION is an option label, which a select's options= shows so that an
// agent can choose it; FRAME-TEXT-SECRET is an iframe's text, which the outline includes
// (read does not); OFFSCREEN-TEXT is positioned off-screen but is in the accessibility tree
// as any screen reader reads it, and the AX tree carries no layout to tell it apart.
var outlineHidden = func() []string {
	var out []string
	for _, m := range fixture.ReadHiddenText {
		switch m {
		case "SELECT-UNSELECTED-OPTION", "FRAME-TEXT-SECRET", "OFFSCREEN-TEXT":
			continue
		}
		out = append(out, m)
	}
	return append(out, fixture.ControlsHiddenValues...)
}()

// defaults are the published outline budgets.
func defaults(pageURL string) outline.Options {
	return outline.Options{MaxNodes: budgets.OutlineNodes().Default, MaxDepth: budgets.OutlineDepth().Default,
		MaxTextChars: budgets.OutlineTextChars().Default, PageURL: pageURL, RefFor: sequentialRefs()}
}

// sequentialRefs hands out e1, e2, … and counts calls per element.
func sequentialRefs() func(outline.NodeKey) string {
	refs := map[outline.NodeKey]string{}
	return func(b outline.NodeKey) string {
		if r, ok := refs[b]; ok {
			return r
		}
		refs[b] = "e" + strconv.Itoa(len(refs)+1)
		return refs[b]
	}
}

func TestGolden(t *testing.T) {
	srv := httptest.NewServer(fixture.Handler())
	defer srv.Close()
	large := outline.Options{MaxNodes: budgets.OutlineNodes().Ceiling, MaxDepth: budgets.OutlineDepth().Ceiling,
		MaxTextChars: budgets.OutlineTextChars().Ceiling}
	for _, c := range []struct {
		golden, path string
		opts         *outline.Options // nil: the defaults
		class        string
		truncated    bool
		want         []string // lines the outline must hold
	}{
		{golden: "form", path: "/form", class: transport.PageLogin,
			want: []string{`password [e2] "Password"`, `file [e6] "Attachment"`, `link [e8] "Forgot password?" -> /about`}},
		{golden: "read", path: "/read", class: transport.PageLogin},
		{golden: "controls", path: "/controls", class: transport.PageLogin,
			want: []string{`combobox [e5] "Country" selected="Sweden" options=["Norway","Sweden","Denmark"]`,
				`checkbox [e6] "Subscribe" checked=false`, `button [e12] "Disabled action" disabled`,
				`link [e14] "Back home" -> /`, `link [e15] "Docs" -> http://docs.invalid/x`}},
		{golden: "table", path: "/table", class: transport.PageNormal,
			want: []string{"  row: Order | Customer | Total", "  … 47 more rows", "  … 5 more listitems"}},
		{golden: "frames", path: "/frames", class: transport.PageNormal,
			want: []string{`iframe "Inner frame"`, `  button [e1] "Inner button"`}},
		{golden: "big", path: "/big", class: transport.PageNormal, truncated: true},
		{golden: "big-large", path: "/big", opts: &large, class: transport.PageNormal},
		{golden: "login", path: "/login", class: transport.PageLogin},
		{golden: "captcha", path: "/captcha", class: transport.PageBotCheck},
		{golden: "delete", path: "/delete", class: transport.PageNormal},
	} {
		t.Run(c.golden, func(t *testing.T) {
			pageURL := srv.URL + c.path
			tab := openTab(t, pageURL)
			frames := tab.frames(t)
			opts := defaults(pageURL)
			if c.opts != nil {
				opts.MaxNodes, opts.MaxDepth, opts.MaxTextChars = c.opts.MaxNodes, c.opts.MaxDepth, c.opts.MaxTextChars
			}
			o := outline.Build(frames, opts)
			text := strings.ReplaceAll(o.Text, strings.TrimPrefix(srv.URL, "http://"), hostPlaceholder)
			compareGolden(t, c.golden, text)
			requireAbsent(t, o, outlineHidden)
			if o.Truncated != c.truncated {
				t.Errorf("Truncated = %v, want %v", o.Truncated, c.truncated)
			}
			if got := outline.Classify(o, tab.title(t), 200); got != c.class {
				t.Errorf("Classify = %q, want %q", got, c.class)
			}
			lines := strings.Split(o.Text, "\n")
			for _, w := range c.want {
				if !slices.Contains(lines, w) {
					t.Errorf("outline has no line %q", w)
				}
			}
			requireConsistent(t, o)
		})
	}
}

// TestTypedValueAbsent types into a text field and the password field of /controls and
// checks that neither typed text reaches the outline.
func TestTypedValueAbsent(t *testing.T) {
	srv := httptest.NewServer(fixture.Handler())
	defer srv.Close()
	tab := openTab(t, srv.URL+"/controls")
	const typed, typedSecret = "TYPED-BY-TEST-VALUE", "TYPED-PASSWORD-SECRET"
	frames := tab.frames(t)
	for _, f := range []struct{ role, name, text string }{
		{"textbox", "Full name", typed},
		{"password", "Password", typedSecret},
		{"textbox", "Comments", typed},
	} {
		found := outline.Find(frames, f.role, f.name, true)
		if len(found) != 1 {
			t.Fatalf("Find(%s, %q) = %v, want one element", f.role, f.name, found)
		}
		tab.typeInto(t, found[0].Backend, f.text)
	}
	o := outline.Build(tab.frames(t), defaults(srv.URL+"/controls"))
	requireAbsent(t, o, append([]string{typed, typedSecret}, outlineHidden...))
	if !strings.Contains(o.Text, `textbox [e1] "Full name"`) || !strings.Contains(o.Text, `password [e3] "Password"`) {
		t.Errorf("the fields are missing after typing:\n%s", o.Text)
	}
}

// requireAbsent fails when a marker is in the outline's text or JSON nodes.
func requireAbsent(t *testing.T, o outline.Outline, markers []string) {
	t.Helper()
	js, err := json.Marshal(o.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range markers {
		if strings.Contains(o.Text, m) {
			t.Errorf("outline text contains %q", m)
		}
		if strings.Contains(string(js), m) {
			t.Errorf("outline JSON contains %q", m)
		}
	}
}

// requireConsistent checks that Elements are exactly the nodes with refs, in output order.
func requireConsistent(t *testing.T, o outline.Outline) {
	t.Helper()
	var refs []string
	var walk func([]transport.OutlineNode)
	walk = func(ns []transport.OutlineNode) {
		for _, n := range ns {
			if n.Ref != "" {
				refs = append(refs, n.Ref)
			}
			walk(n.Children)
		}
	}
	walk(o.Nodes)
	var els []string
	for _, e := range o.Elements {
		els = append(els, e.Ref)
	}
	if !slices.Equal(refs, els) {
		t.Errorf("refs in nodes %v, Elements %v", refs, els)
	}
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("outline of %s differs from %s:\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}
