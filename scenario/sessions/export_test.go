package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/scenario"
)

const site = "http://127.0.0.1:4310"

func record(url string, origins ...string) Record {
	if origins == nil {
		origins = []string{site}
	}
	return Record{ID: "s1", Created: time.Date(2026, 12, 3, 15, 4, 5, 0, time.FixedZone("x", 3600)),
		Options: Options{URL: url, AllowedOrigins: origins}}
}

// done is a history entry that ran, whose exported form is export, on a page that stayed at
// url.
func done(i int, export, url string) Entry {
	return Entry{Index: i, Operation: json.RawMessage(export), Status: StatusDone, Export: json.RawMessage(export), URLBefore: url, URLAfter: url}
}

func failed(i int, url string) Entry {
	return Entry{Index: i, Operation: json.RawMessage(`{"click":"e99"}`), Status: StatusFailed, Code: "element_not_found", Message: "no e99", URLBefore: url, URLAfter: url}
}

const (
	typeUser  = `{"id":"user","op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":"ada"}}`
	cookies   = `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Accept cookies"}},"when":{"kind":"count","value":"1","target":{"role":"button","name":"Accept cookies"}}}`
	clickSign = `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Sign in","exact":true}}}`
)

// compact is raw without insignificant white space, for comparing operations.
func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func exportOK(t *testing.T, rec Record, entries []Entry, opts ExportOptions) *Exported {
	t.Helper()
	x, err := Export(rec, entries, opts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// exportErr exports and requires a refusal with code whose message contains every want.
func exportErr(t *testing.T, rec Record, entries []Entry, opts ExportOptions, code string, want ...string) {
	t.Helper()
	x, err := Export(rec, entries, opts)
	var e *Error
	if !errors.As(err, &e) || e.Code() != code {
		t.Fatalf("got %v (%+v), want code %s", err, x, code)
	}
	for _, w := range want {
		if !strings.Contains(e.Message, w) {
			t.Errorf("message %q lacks %q", e.Message, w)
		}
	}
}

func TestExportKeepsDoneAndSkippedInOrder(t *testing.T) {
	form := site + "/form?a=1&b=2"
	skipped := done(2, cookies, form)
	skipped.Status = StatusSkipped
	// Given out of order: export goes by Index.
	entries := []Entry{done(3, clickSign, form), failed(1, form), done(0, typeUser, form), skipped}
	entries[0].URLAfter = site + "/welcome"
	x := exportOK(t, record(form), entries, ExportOptions{})

	if !bytes.HasSuffix(x.File, []byte("}\n")) || !bytes.HasPrefix(x.File, []byte("{\n  \"version\": 1,\n  \"id\": \"session-s1\",\n")) {
		t.Fatalf("not 2-space indented JSON ending in a newline:\n%s", x.File)
	}
	if !bytes.Contains(x.File, []byte(`"url": "`+form+`"`)) {
		t.Errorf("the URL was escaped (want & as it is):\n%s", x.File)
	}
	l, err := scenario.Parse(x.File)
	if err != nil {
		t.Fatalf("the export does not validate: %v\n%s", err, x.File)
	}
	if l.ID != "session-s1" || l.Description != "Exported from session s1 on 2026-12-03T14:04:05Z" || !slices.Equal(l.File.AllowedOrigins, []string{site}) {
		t.Errorf("id %q, description %q, allowedOrigins %v", l.ID, l.Description, l.File.AllowedOrigins)
	}
	var f struct {
		Operations []json.RawMessage `json:"operations"`
	}
	if err := json.Unmarshal(x.File, &f); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"op":"navigate","request":{"url":"` + form + `"}}`, typeUser, cookies, clickSign}
	if x.Operations != len(want) || len(f.Operations) != len(want) {
		t.Fatalf("%d operations (%d in the file), want %d:\n%s", x.Operations, len(f.Operations), len(want), x.File)
	}
	for k, w := range want {
		if got := compact(t, f.Operations[k]); got != w {
			t.Errorf("operations[%d] = %s\nwant %s", k, got, w)
		}
	}
	if l.Operations[1].ID != "user" {
		t.Errorf("the id did not round-trip: %+v", l.Operations[1])
	}
	if len(x.Warnings) != 0 {
		t.Errorf("warnings %q", x.Warnings)
	}

	// --id, and a session with no URL: no leading navigate.
	x = exportOK(t, record(""), entries, ExportOptions{ID: "login.v2"})
	l, err = scenario.Parse(x.File)
	if err != nil || l.ID != "login.v2" || x.Operations != 3 || l.Operations[0].Op != "act" {
		t.Fatalf("%v %+v\n%s", err, x, x.File)
	}
}

// TestExportAnyOrigin: a session allowed "*" exports a file without allowedOrigins, which
// (with no fixture) is "*" too; any other list is kept as it is.
func TestExportAnyOrigin(t *testing.T) {
	entries := []Entry{done(0, `{"op":"read"}`, "")}
	x := exportOK(t, record(site+"/", "*"), entries, ExportOptions{})
	if bytes.Contains(x.File, []byte("allowedOrigins")) {
		t.Errorf("allowedOrigins [\"*\"] was written:\n%s", x.File)
	}
	l, err := scenario.Parse(x.File)
	if err != nil || !slices.Equal(l.Origins, []string{"*"}) {
		t.Fatalf("%v: origins %v", err, l.Origins)
	}
	x = exportOK(t, record(site+"/", site, "https://cdn.example.test"), entries, ExportOptions{})
	if l, err = scenario.Parse(x.File); err != nil || !slices.Equal(l.Origins, []string{site, "https://cdn.example.test"}) {
		t.Fatalf("%v: origins %v", err, l.Origins)
	}
}

func TestExportRefusesBadSkipsAndIDs(t *testing.T) {
	entries := []Entry{done(0, typeUser, site), failed(1, site), done(2, clickSign, site)}
	rec := record(site + "/form")
	exportErr(t, rec, entries, ExportOptions{Skip: []int{1}}, CodeInvalidInput, "operation 1 failed and is not exported anyway")
	exportErr(t, rec, entries, ExportOptions{Skip: []int{7}}, CodeInvalidInput, "history has no operation 7")
	exportErr(t, rec, entries, ExportOptions{ID: "no spaces"}, CodeInvalidInput, `scenario id "no spaces"`)
	// Skipping one that was done is fine, and leaves it out.
	x := exportOK(t, rec, entries, ExportOptions{Skip: []int{0}})
	if x.Operations != 2 || bytes.Contains(x.File, []byte("Username")) {
		t.Fatalf("skip 0 kept it:\n%s", x.File)
	}
	// Nothing left to export.
	exportErr(t, record(""), entries, ExportOptions{Skip: []int{0, 2}}, CodeInvalidInput, "nothing to export")
}

// TestExportInconsistentHistory: a done entry without its exported form is the host's bug,
// not the user's input.
func TestExportInconsistentHistory(t *testing.T) {
	broken := done(1, clickSign, site)
	broken.Export = nil
	exportErr(t, record(""), []Entry{done(0, typeUser, site), broken}, ExportOptions{}, CodeFailed, "history operation 1 is done but has no exported form")
	exportErr(t, record(""), []Entry{done(0, typeUser, site), done(0, clickSign, site)}, ExportOptions{}, CodeFailed, "operation 0 twice")
}

// TestExportSkipThatBreaksAReference: leaving out the listTabs a later selectTab names by id
// makes a file that would not validate: export_invalid names the history operation that
// refers (and where it landed in the file) and the one left out.
func TestExportSkipThatBreaksAReference(t *testing.T) {
	entries := []Entry{
		done(0, `{"id":"tabs","op":"listTabs"}`, site),
		done(1, typeUser, site),
		done(2, `{"op":"selectTab","request":{"tab":{"source":"operation","operation":{"id":"tabs"},"result":"listedTab","index":0}}}`, site),
	}
	rec := record(site + "/form")
	exportOK(t, rec, entries, ExportOptions{})
	exportErr(t, rec, entries, ExportOptions{Skip: []int{0}}, CodeExportInvalid,
		`history operation 2 (exported as operations[2]): operations[2].request.tab.operation.id: no operation has id "tabs"`,
		`history operation 0, which has id "tabs", was left out with --skip`)
	// The session's URL is the leading navigate's.
	exportErr(t, record("http://ada:pw@example.test/"), entries, ExportOptions{}, CodeExportInvalid,
		"the leading navigate (exported as operations[0]): operations[0].request.url: a URL must not carry credentials")
	// A refusal unrelated to --skip names only where it is.
	bad := done(1, `{"op":"read","when":{"kind":"html","value":"x"}}`, site)
	exportErr(t, record(""), []Entry{bad}, ExportOptions{}, CodeExportInvalid, "history operation 1 (exported as operations[0]): operations[0].when.kind: expected one of")
}

// TestExportWarnings: each warning appears exactly when it should, names the history index,
// and shows a URL only as origin and path.
func TestExportWarnings(t *testing.T) {
	form, welcome := site+"/form", site+"/welcome?token=T0PS3CRET#x"
	notUnique := done(1, clickSign, form)
	notUnique.NotUnique = true
	upload := done(1, `{"op":"act","request":{"action":"upload","target":{"role":"button","name":"Attachment"},"files":["a.txt"]}}`, form)
	upload.Upload = true
	moved := done(1, clickSign, form)
	moved.URLAfter = welcome
	cases := []struct {
		name    string
		start   string
		entries []Entry
		want    []string // one substring per warning, in order
	}{
		{"none", form, []Entry{done(0, typeUser, form), moved, done(2, `{"op":"read"}`, welcome)}, nil},
		{"first op not on the session's URL", form, []Entry{done(0, typeUser, site+"/about")},
			[]string{"history operation 0 started on " + site + "/about, not on " + site + "/form"}},
		{"no URL, nothing to compare the first with", "", []Entry{done(0, typeUser, site+"/about")}, nil},
		{"the URL as the browser writes it", "HTTP://example.test:80#top", []Entry{done(0, `{"op":"read"}`, "http://example.test/")}, nil},
		{"another query", site + "/list?page=1", []Entry{done(0, `{"op":"read"}`, site+"/list?page=2&token=T0PS3CRET")},
			[]string{"history operation 0 started on " + site + "/list with another query, not on " + site + "/list where"}},
		{"credentials never shown", "http://example.test/a", []Entry{done(0, `{"op":"read"}`, "http://ada:T0PS3CRET@example.test/b"), done(1, `{"op":"read"}`, "about:blank")},
			[]string{"history operation 0 started on http://example.test/b, not on http://example.test/a", "history operation 1 started on about:blank, not on http://example.test/b"}},
		{"a failed operation moved the page", form, []Entry{done(0, typeUser, form), {Index: 1, Status: StatusFailed, URLBefore: form, URLAfter: welcome}, done(2, `{"op":"read"}`, welcome)},
			[]string{"history operation 2 started on " + site + "/welcome, not on " + site + "/form"}},
		{"an exported operation moved the page", form, []Entry{moved, done(2, `{"op":"read"}`, welcome)},
			nil},
		{"not unique", form, []Entry{done(0, typeUser, form), notUnique}, []string{`history operation 1: its target button "Sign in" matched more than one element`}},
		{"upload", form, []Entry{upload}, []string{"history operation 1 uploads files (a.txt): they must exist where the file is replayed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			rec := record(c.start)
			rec.Options.Dir = dir
			x := exportOK(t, rec, c.entries, ExportOptions{})
			if len(x.Warnings) != len(c.want) {
				t.Fatalf("warnings %q, want %d", x.Warnings, len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(x.Warnings[i], w) {
					t.Errorf("warning %q lacks %q", x.Warnings[i], w)
				}
			}
			for _, w := range x.Warnings {
				if strings.Contains(w, "T0PS3CRET") || strings.Contains(w, "token") {
					t.Errorf("a warning shows a query: %q", w)
				}
			}
		})
	}
	// A left-out operation that moved the page: the next one warns.
	rec := record(form)
	x := exportOK(t, rec, []Entry{moved, done(2, `{"op":"read"}`, welcome)}, ExportOptions{Skip: []int{1}})
	if len(x.Warnings) != 1 || !strings.Contains(x.Warnings[0], "history operation 2 started on "+site+"/welcome,") {
		t.Fatalf("warnings %q", x.Warnings)
	}
}

// TestExportUploadResolvesInTheSessionDir: the export validates upload paths where the
// session resolved them, its working directory; a file gone since is export_invalid.
func TestExportUploadResolvesInTheSessionDir(t *testing.T) {
	upload := done(0, `{"op":"act","request":{"action":"upload","target":{"role":"button","name":"Attachment"},"files":["a.txt"]}}`, site)
	upload.Upload = true
	rec := record("")
	rec.Options.Dir = t.TempDir()
	exportErr(t, rec, []Entry{upload}, ExportOptions{}, CodeExportInvalid, "history operation 0 (exported as operations[0]): operations[0].request.files[0]: no such regular file")
	if err := os.WriteFile(filepath.Join(rec.Options.Dir, "a.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	exportOK(t, rec, []Entry{upload}, ExportOptions{})
}

// TestExportKeepsEnvReferences: typed secrets stay {"env":"NAME"}; the value, which history
// never had, is nowhere in the file even when the exporting process has it.
func TestExportKeepsEnvReferences(t *testing.T) {
	const value = "hunter2-PORTAL"
	t.Setenv("PORTAL_PASSWORD", value)
	pass := `{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Password"},"text":{"env":"PORTAL_PASSWORD"}}}`
	x := exportOK(t, record(site+"/form"), []Entry{done(0, pass, site+"/form")}, ExportOptions{})
	if bytes.Contains(x.File, []byte(value)) {
		t.Fatal("the secret's value is in the export")
	}
	if !bytes.Contains(x.File, []byte("\"text\": {\n          \"env\": \"PORTAL_PASSWORD\"\n        }")) {
		t.Fatalf("the env reference is not kept:\n%s", x.File)
	}
	if _, err := scenario.Parse(x.File); err != nil {
		t.Fatal(err)
	}
}

// A first URL that redirects (/shop/ → /shop/login) is where the first operation starts:
// no warning for it.
func TestExportFirstEntryStartsWhereTheOpenLanded(t *testing.T) {
	rec := Record{ID: "s-0000000a", Options: Options{URL: "http://127.0.0.1:9/shop/", AllowedOrigins: []string{"http://127.0.0.1:9"}},
		LandedURL: "http://127.0.0.1:9/shop/login"}
	entries := []Entry{{Index: 0, Status: StatusDone, Operation: json.RawMessage(`{"op":"read"}`), Export: json.RawMessage(`{"op":"read"}`),
		URLBefore: "http://127.0.0.1:9/shop/login", URLAfter: "http://127.0.0.1:9/shop/login"}}
	ex, err := Export(rec, entries, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Warnings) != 0 {
		t.Fatalf("warnings %q; the first operation started where the open landed", ex.Warnings)
	}
	rec.LandedURL = ""
	if ex, _ := Export(rec, entries, ExportOptions{}); len(ex.Warnings) != 1 {
		t.Fatalf("without the landing URL: warnings %q, want the page-reached-outside warning", ex.Warnings)
	}
}

// A ref the host could not name by role and name is exported as a ref, with a warning.
func TestExportWarnsOfAnUnresolvedRef(t *testing.T) {
	rec := Record{ID: "s-0000000b", Options: Options{AllowedOrigins: []string{"*"}}}
	op := json.RawMessage(`{"op":"act","request":{"action":"click","target":{"ref":"e9"}},"when":{"kind":"title","value":"X"}}`)
	ex, err := Export(rec, []Entry{{Index: 0, Status: StatusSkipped, Operation: op, Export: op, UnresolvedRefs: []string{"e9"}}}, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Warnings) != 1 || !strings.Contains(ex.Warnings[0], "history operation 0 names an element by outline ref e9") {
		t.Fatalf("warnings %q", ex.Warnings)
	}
}

// TestExportLeavesOutAnUnpickedUploadInWords: an upload into words its when skipped before
// the model picked an input has no exported form: it is left out with a warning, and the
// operations around it are exported; a when in words is kept as written and warned about.
func TestExportLeavesOutAnUnpickedUploadInWords(t *testing.T) {
	judged := `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Accept cookies"}},"when":"the cookie banner is shown"}`
	unpicked := Entry{Index: 1, Operation: json.RawMessage(`{"upload":{"into":"the Receipt input","files":["a.txt"]},"when":"a receipt is asked for"}`),
		Status: StatusSkipped, NotPicked: true, URLBefore: site + "/form", URLAfter: site + "/form"}
	x := exportOK(t, record(site+"/form"), []Entry{done(0, clickSign, site+"/form"), unpicked, done(2, judged, site+"/form")}, ExportOptions{})
	if x.Operations != 3 || strings.Contains(string(x.File), "Receipt") || !strings.Contains(string(x.File), `"when": "the cookie banner is shown"`) {
		t.Errorf("export: %d operations, want the navigate, the click and the judged act, the when as written:\n%s", x.Operations, x.File)
	}
	want := []string{"history operation 1, an upload into words, is left out", "history operation 2 has a when in words"}
	if len(x.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", x.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(x.Warnings[i], w) {
			t.Errorf("warning %d: %q, want it to start %q", i, x.Warnings[i], w)
		}
	}
}
