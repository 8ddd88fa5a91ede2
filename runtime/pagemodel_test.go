package runtime_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// findRef returns the ref of the first outline node with role and name.
func findRef(nodes []transport.OutlineNode, role, name string) string {
	for _, n := range nodes {
		if n.Role == role && n.Name == name && n.Ref != "" {
			return n.Ref
		}
		if r := findRef(n.Children, role, name); r != "" {
			return r
		}
	}
	return ""
}

func observe(t *testing.T, rt transport.Caller) transport.ObserveResult {
	t.Helper()
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	return ob
}

// popupFrom navigates the selected tab to page, clicks the button named button there, and
// returns the handle of the popup it opened.
func popupFrom(t *testing.T, rt transport.Caller, page, button string) string {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match(button)}}); err != nil {
		t.Fatal(err)
	}
	pop, err := transport.Dispatch(bg, rt, transport.WaitPopup{})
	if err != nil {
		t.Fatal(err)
	}
	return pop.Popup
}

func TestObserveHidesValues(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/controls"}); err != nil {
		t.Fatal(err)
	}
	ob := observe(t, rt)
	full, _ := json.Marshal(ob)
	for _, secret := range fixture.ControlsHiddenValues {
		if strings.Contains(string(full), secret) {
			t.Errorf("observe leaks %q", secret)
		}
	}
	if ob.PageClass != transport.PageLogin { // the page has a password field
		t.Errorf("page class %q", ob.PageClass)
	}
	ref := findRef(ob.Nodes, "textbox", "Full name")
	if ref == "" || ob.DocumentID == "" || !strings.Contains(ob.Text, "Full name") {
		t.Fatalf("outline lacks the Full name field:\n%s", ob.Text)
	}
	// Typing: the field holds the text, the receipt only its length, the outline never it.
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Ref: ref}, Text: transport.Literal("TYPED-VALUE-7")})
	if err != nil {
		t.Fatal(err)
	}
	if res.MutationState != transport.Verified || res.Receipt.TypedLength == nil || *res.Receipt.TypedLength != 13 {
		t.Fatalf("type result %+v", res)
	}
	raw, _ := json.Marshal(res)
	if strings.Contains(string(raw), "TYPED-VALUE") {
		t.Fatalf("the receipt holds the typed text: %s", raw)
	}
	again, _ := json.Marshal(observe(t, rt))
	if strings.Contains(string(again), "TYPED-VALUE") {
		t.Fatal("the outline shows a typed value")
	}
	if findRef(observe(t, rt).Nodes, "textbox", "Full name") != ref {
		t.Error("the same element got a different ref in the same document")
	}
}

func TestActRefusals(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)

	// Covered: refused before anything reaches the page; the page's counter stays put.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/covered"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Covered button")}})
	wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
	if n := runtimetest.Clicks(t, site.URL)["covered"]; n != 0 {
		t.Fatalf("covered button was clicked %d times", n)
	}
	// Without the overlay the same click lands and is verified.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/covered?nooverlay=1"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Covered button")}})
	if err != nil || res.MutationState != transport.Verified {
		t.Fatalf("uncovered click: %+v %v", res, err)
	}

	// Ambiguous by role and name: refused with the count.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/delete"}); err != nil {
		t.Fatal(err)
	}
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Delete")}})
	oe := wantCode(t, err, transport.CodeElementAmbiguous, transport.NotAttempted)
	if !strings.Contains(oe.Message, "2 elements") {
		t.Errorf("ambiguity message %q", oe.Message)
	}
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Nope")}})
	wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)

	// A ref from before a navigation is stale.
	ob := observe(t, rt)
	ref := findRef(ob.Nodes, "button", "Delete")
	if ref == "" {
		t.Fatalf("no Delete button:\n%s", ob.Text)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"}); err != nil {
		t.Fatal(err)
	}
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: ref}})
	wantCode(t, err, transport.CodeStaleDocument, transport.NotAttempted)
	if n := runtimetest.Clicks(t, site.URL)["delete"]; n != 0 {
		t.Fatalf("delete clicked %d times", n)
	}
}

func TestActControls(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/controls"}); err != nil {
		t.Fatal(err)
	}
	do := func(a transport.Act) transport.ActResult {
		t.Helper()
		res, err := transport.Dispatch(bg, rt, a)
		if err != nil {
			t.Fatalf("%s %+v: %v", a.Action, a.Target, err)
		}
		if res.MutationState != transport.Verified {
			t.Fatalf("%s %+v: mutation %s", a.Action, a.Target, res.MutationState)
		}
		return res
	}
	sel := do(transport.Act{Action: transport.ActSelect, Target: transport.Target{Role: "combobox", Name: transport.Match("Country")}, Option: "Denmark"})
	if sel.Receipt.Option != "Denmark" {
		t.Errorf("select receipt %+v", sel.Receipt)
	}
	do(transport.Act{Action: transport.ActSelect, Target: transport.Target{Role: "combobox", Name: transport.Match("Country")}, Option: "no"}) // by value
	chk := do(transport.Act{Action: transport.ActCheck, Target: transport.Target{Role: "checkbox", Name: transport.Match("Subscribe")}})
	if chk.Receipt.Checked != "true" {
		t.Errorf("check receipt %+v", chk.Receipt)
	}
	do(transport.Act{Action: transport.ActUncheck, Target: transport.Target{Role: "checkbox", Name: transport.Match("Accept terms")}})
	do(transport.Act{Action: transport.ActCheck, Target: transport.Target{Role: "radio", Name: transport.Match("Premium")}})
	ob := observe(t, rt)
	if !strings.Contains(ob.Text, `selected="Norway"`) {
		t.Errorf("outline does not show the new selection:\n%s", ob.Text)
	}
	_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Disabled action")}})
	wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActSelect, Target: transport.Target{Role: "combobox", Name: transport.Match("Country")}, Option: "Atlantis"})
	wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	save := do(transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Save")}})
	if save.Receipt.Role != "button" || save.Receipt.Ref == "" {
		t.Errorf("click receipt %+v", save.Receipt)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Saved"}); err != nil {
		t.Fatal(err)
	}
}

func TestPressAndUpload(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/keys"}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "Enter", "ArrowDown"} {
		res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActPress, Target: transport.Target{Role: "textbox", Name: transport.Match("Search")}, Key: k})
		if err != nil || res.MutationState != transport.Verified || res.Receipt.Key != k {
			t.Fatalf("press %s: %+v %v", k, res, err)
		}
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "ArrowDown"}); err != nil {
		t.Fatal(err)
	}

	// Upload: a file under the working directory works; one outside it is refused.
	wd, _ := os.Getwd()
	dir, err := os.MkdirTemp(wd, "upload-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	inside := filepath.Join(dir, "cv.txt")
	os.WriteFile(inside, []byte("hello"), 0o600)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/upload"}); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(wd, inside)
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActUpload, Target: transport.Target{Role: "button", Name: transport.Match("Document")}, Files: []string{rel}})
	if err != nil {
		// Chromium names file inputs differently across versions; fall back to the outline's ref.
		ob := observe(t, rt)
		ref := findRef(ob.Nodes, "file", "Document")
		if ref == "" {
			t.Fatalf("upload by role failed (%v) and no file input in outline:\n%s", err, ob.Text)
		}
		res, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActUpload, Target: transport.Target{Ref: ref}, Files: []string{rel}})
	}
	if err != nil || res.MutationState != transport.Verified || res.Receipt.Files != 1 {
		t.Fatalf("upload: %+v %v", res, err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("x"), 0o600)
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActUpload, Target: transport.Target{Ref: res.Receipt.Ref}, Files: []string{outside}})
	wantCode(t, err, transport.CodeInvalidRequest, transport.NotAttempted)
}

func TestSecretTextNeverLeaves(t *testing.T) {
	t.Setenv("FB_TEST_SECRET", "hunter2-secret-value")
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/controls"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Password")}, Text: transport.FromEnv("FB_TEST_SECRET")})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if strings.Contains(string(raw), "hunter2") || *res.Receipt.TypedLength != len("hunter2-secret-value") {
		t.Fatalf("result %s", raw)
	}
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Password")}, Text: transport.FromEnv("FB_TEST_UNSET_VAR")})
	oe := wantCode(t, err, transport.CodeInvalidRequest, transport.NotAttempted)
	if oe.Path != "request.text.env" {
		t.Errorf("path %q", oe.Path)
	}
	rd, _ := transport.Dispatch(bg, rt, transport.Read{})
	ob, _ := json.Marshal(observe(t, rt))
	if strings.Contains(rd.Text, "hunter2") || strings.Contains(string(ob), "hunter2") {
		t.Fatal("the secret appears in read or observe")
	}
}

func TestWaitPopup(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/popup"}); err != nil {
		t.Fatal(err)
	}
	// No popup yet: the wait is bounded.
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Open popup")}}); err != nil {
		t.Fatal(err)
	}
	// The popup opened before the wait; it is not lost.
	pop, err := transport.Dispatch(bg, rt, transport.WaitPopup{})
	if err != nil {
		t.Fatal(err)
	}
	if pop.Popup == "" || pop.Popup == pop.Opener || pop.AutoSwitched || pop.Opener != "t1" {
		t.Fatalf("popup %+v", pop)
	}
	// Selection did not change: reads still go to the opener.
	rd, _ := transport.Dispatch(bg, rt, transport.Read{})
	if rd.Title != "Popup opener" {
		t.Fatalf("selection moved to %q", rd.Title)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Tab: pop.Popup, Kind: transport.AssertTitle, Value: "Popup child"}); err != nil {
		t.Fatal(err)
	}
	lt, _ := transport.Dispatch(bg, rt, transport.ListTabs{})
	if len(lt.Tabs) != 2 || lt.Selected != "t1" {
		t.Fatalf("tabs %+v", lt)
	}
	// A second wait with nothing new times out within the popup budget.
	_, err = transport.Dispatch(bg, rt, transport.WaitPopup{})
	wantCode(t, err, transport.CodeTimeout, transport.NotAttempted)
}

func TestObserveClassifiesPages(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	for path, want := range map[string]string{
		"/form": transport.PageLogin, "/login": transport.PageLogin, "/captcha": transport.PageBotCheck,
		"/status/404": transport.PageHTTPError, "/about": transport.PageNormal,
	} {
		if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + path}); err != nil {
			t.Fatal(err)
		}
		ob := observe(t, rt)
		if ob.PageClass != want {
			t.Errorf("%s: page class %q, want %q\n%s", path, ob.PageClass, want, ob.Text)
		}
	}
	// An empty password field renders as a password, never with a value.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"}); err != nil {
		t.Fatal(err)
	}
	if ob := observe(t, rt); findRef(ob.Nodes, "password", "Password") == "" {
		t.Errorf("no password field in the /form outline:\n%s", ob.Text)
	}
}
