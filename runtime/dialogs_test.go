package runtime_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The dialog tests assert on what each operation returned, never on how long it took: an
// unanswered dialog stalls the page, so an operation that opened one would end with a
// timeout error after its budget instead of the result checked here.

// clickButton clicks the button with exactly this name ("Alert", not "Alert later").
func clickButton(name string) transport.Act {
	return transport.Act{Action: transport.ActClick, Target: *exactRole("button", name)}
}

func wantDialogs(t *testing.T, what string, got []transport.Dialog, want ...transport.Dialog) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: dialogs %+v, want %+v", what, got, want)
	}
}

// readAnswer reads the page and checks what its last dialog returned (the dialogs page's
// "Answer:" line), and that the read itself reports no dialog.
func readAnswer(t *testing.T, rt transport.Caller, want string) transport.ReadResult {
	t.Helper()
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rd.Text, "Answer: "+want+"\n") && !strings.HasSuffix(rd.Text, "Answer: "+want) {
		t.Fatalf("the page's answer is not %q:\n%s", want, rd.Text)
	}
	wantDialogs(t, "read", rd.Dialogs)
	return rd
}

// TestDialogsAnsweredAndReported: alert, confirm and prompt opened by an act's click are
// answered while the click is in flight (dismissed unless the act accepts), the act returns
// its receipt, and its result lists each dialog. The page's own record of what the dialog
// returned shows the answer was the one reported.
func TestDialogsAnsweredAndReported(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/dialogs"}); err != nil {
		t.Fatal(err)
	}
	accept := func(a transport.Act, promptText string) transport.Act {
		a.Dialog, a.PromptText = transport.DialogAccept, promptText
		return a
	}
	cases := []struct {
		name   string
		act    transport.Act
		dialog transport.Dialog
		answer string
	}{
		{"alert", clickButton("Alert"), transport.Dialog{Type: "alert", Message: "Hello from the alert button", Action: transport.DialogDismissed}, "alert returned"},
		{"alert accepted", accept(clickButton("Alert"), ""), transport.Dialog{Type: "alert", Message: "Hello from the alert button", Action: transport.DialogAccepted}, "alert returned"},
		{"confirm", clickButton("Confirm"), transport.Dialog{Type: "confirm", Message: "Proceed with the confirm?", Action: transport.DialogDismissed}, "confirm returned false"},
		{"confirm accepted", accept(clickButton("Confirm"), ""), transport.Dialog{Type: "confirm", Message: "Proceed with the confirm?", Action: transport.DialogAccepted}, "confirm returned true"},
		{"confirm dismissed explicitly", func() transport.Act { a := clickButton("Confirm"); a.Dialog = transport.DialogDismiss; return a }(),
			transport.Dialog{Type: "confirm", Message: "Proceed with the confirm?", Action: transport.DialogDismissed}, "confirm returned false"},
		{"prompt", clickButton("Prompt"), transport.Dialog{Type: "prompt", Message: "What is your name?", Action: transport.DialogDismissed}, "prompt returned null"},
		{"prompt accepted with text", accept(clickButton("Prompt"), "Ada Lovelace"), transport.Dialog{Type: "prompt", Message: "What is your name?", Action: transport.DialogAccepted}, "prompt returned text Ada Lovelace"},
		{"prompt accepted without text", accept(clickButton("Prompt"), ""), transport.Dialog{Type: "prompt", Message: "What is your name?", Action: transport.DialogAccepted}, "prompt returned text PROMPT-DEFAULT"},
	}
	for _, c := range cases {
		res, err := transport.Dispatch(bg, rt, c.act)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.MutationState != transport.Verified || res.Receipt.Name != c.act.Target.Name.String {
			t.Fatalf("%s: act result %+v", c.name, res)
		}
		wantDialogs(t, c.name, res.Dialogs, c.dialog)
		readAnswer(t, rt, c.answer)
	}
	// A page that opens 100 alerts in one click: every one is answered (the page goes on),
	// the first 32 are listed, none is left over for the next operation.
	storm, err := transport.Dispatch(bg, rt, clickButton("Alert storm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(storm.Dialogs) != budgets.DialogsReported || storm.Dialogs[0].Message != "Storm 0" || storm.Dialogs[31].Message != "Storm 31" {
		t.Fatalf("storm: %d dialogs %+v", len(storm.Dialogs), storm.Dialogs)
	}
	readAnswer(t, rt, "storm returned")
	// "accept" held for that act only: the next act's confirm is dismissed again.
	res, err := transport.Dispatch(bg, rt, clickButton("Confirm"))
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "confirm after an accepting act", res.Dialogs, transport.Dialog{Type: "confirm", Message: "Proceed with the confirm?", Action: transport.DialogDismissed})
	readAnswer(t, rt, "confirm returned false")
}

// TestDialogOnLoadAndFromTimer: an alert a page opens while it loads is answered and
// reported by the navigate (also from a cross-site frame, which runs in a process of its
// own); one a timer opens while no operation runs is answered at once and
// reported by the next operation, with its message scrubbed of the session's secrets. The
// operation after that reports nothing.
func TestDialogOnLoadAndFromTimer(t *testing.T) {
	t.Parallel()
	const secret = "DIALOG-SECRET-0123456789"
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: browserURL(t), LookupEnv: func(name string) (string, bool) {
		return secret, name == "FB_DIALOG_SECRET"
	}})

	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/dialogs/onload"})
	if err != nil {
		t.Fatal(err)
	}
	if nav.Title != "Dialog on load" {
		t.Fatalf("navigate %+v", nav)
	}
	wantDialogs(t, "navigate", nav.Dialogs, transport.Dialog{Type: "alert", Message: "Hello from the page load", Action: transport.DialogDismissed})

	// The same page inside a cross-site (out-of-process) frame.
	framed := strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + "/dialogs/onload"
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Outer</title><p>Outer page</p><iframe title="Framed" src="%s"></iframe>`, framed)
	}))
	defer outer.Close()
	nav, err = transport.Dispatch(bg, rt, transport.Navigate{URL: outer.URL})
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "navigate to a page framing it cross-site", nav.Dialogs, transport.Dialog{Type: "alert", Message: "Hello from the page load", Action: transport.DialogDismissed})

	echoSecret(t, rt, site.URL)
	res, err := transport.Dispatch(bg, rt, clickButton("Alert later"))
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "the act arming the timer", res.Dialogs)
	// Between two operations: let the page open its alert, and wait until the page says the
	// alert returned (it records "timerdone" after it).
	post(t, site.URL+"/clicks/hit?page=go")
	for deadline := time.Now().Add(budgets.Navigation().Default); runtimetest.Clicks(t, site.URL)["timerdone"] == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the timer's alert was never answered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The next operation reports it, failed or not: here one that fails.
	_, err = transport.Dispatch(bg, rt, clickButton("No such button"))
	oe := wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	wantDialogs(t, "the next operation (an error)", oe.Dialogs, transport.Dialog{Type: "alert", Message: "Hello from a timer: [secret]", Action: transport.DialogDismissed})
	raw, _ := json.Marshal(oe)
	if strings.Contains(string(raw), "DIALOG-SECRET") {
		t.Fatalf("the error leaks the secret: %s", raw)
	}
	readAnswer(t, rt, "timer alert returned")
}

// TestDialogInPopupBeforeAttach: an opener that calls alert() on its popup the moment
// window.open returns can show a dialog before the worker listens to the popup, which stalls
// both pages. The worker closes a tab it cannot attach, so the opener's click returns and the
// opener goes on. Whether the alert comes before the worker listens is the browser's timing:
// when it comes after, the worker answers it and keeps the popup, which is then a popup
// like any other (waitPopup returns it).
func TestDialogInPopupBeforeAttach(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/dialogs"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, clickButton("Alert in a new popup")); err != nil {
		t.Fatal(err)
	}
	readAnswer(t, rt, "popup alert returned")
	lt, err := transport.Dispatch(bg, rt, transport.ListTabs{})
	if err != nil || len(lt.Tabs) < 1 || len(lt.Tabs) > 2 {
		t.Fatalf("tabs %+v %v", lt.Tabs, err)
	}
	if len(lt.Tabs) == 2 {
		pop, err := transport.Dispatch(bg, rt, transport.WaitPopup{})
		if err != nil || pop.Popup != lt.Tabs[1].Tab {
			t.Fatalf("a popup kept but not held as one: waitPopup %+v %v, tabs %+v", pop, err, lt.Tabs)
		}
	}
}

// TestDialogMessageBoundedAndScrubbed: a dialog's message is cut to the bound, and a secret
// the cut falls inside leaves no part of itself behind.
func TestDialogMessageBoundedAndScrubbed(t *testing.T) {
	t.Parallel()
	const secret = "SCRUBBED-SECRET-abcdefghij"
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: browserURL(t), LookupEnv: func(name string) (string, bool) {
		return secret, name == "FB_DIALOG_SECRET"
	}})
	echoSecret(t, rt, site.URL)
	short, err := transport.Dispatch(bg, rt, clickButton("Echo in alert"))
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "short echo", short.Dialogs, transport.Dialog{Type: "alert", Message: "You typed [secret]", Action: transport.DialogDismissed})
	// 190 characters of padding, then the secret: the 200-character cut falls inside it.
	long, err := transport.Dispatch(bg, rt, clickButton("Echo in long alert"))
	if err != nil {
		t.Fatal(err)
	}
	if len(long.Dialogs) != 1 {
		t.Fatalf("dialogs %+v", long.Dialogs)
	}
	msg := long.Dialogs[0].Message
	if n := utf8.RuneCountInString(msg); n != budgets.DialogMessageChars+1 || !strings.HasSuffix(msg, "…") {
		t.Fatalf("message of %d characters, want %d and a cut mark: %q", n, budgets.DialogMessageChars+1, msg)
	}
	raw, _ := json.Marshal(long)
	if strings.Contains(string(raw), secret[:6]) {
		t.Fatalf("the cut message keeps part of the secret: %s", raw)
	}
	if !strings.Contains(msg, strings.Repeat("x", 190)+"[secret]") {
		t.Fatalf("message %q", msg)
	}
}

// TestDialogBeforeUnload: once the page has had a user gesture, leaving it opens a
// beforeunload dialog. Dismissed (the default), the page stays: a navigate or reload fails at
// once with navigation_failed and reports the dialog; an act's click on a link lands and
// returns, and the page is still there. Accepted by the act, the page navigates. closeTab
// (Target.closeTarget) closes the tab without running beforeunload.
func TestDialogBeforeUnload(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	leave := site.URL + "/dialogs/leave"
	unload := func(action string) transport.Dialog {
		return transport.Dialog{Type: "beforeunload", Message: "", Action: action}
	}
	stillOnLeavePage := func(what string) {
		t.Helper()
		rd, err := transport.Dispatch(bg, rt, transport.Read{})
		if err != nil {
			t.Fatal(err)
		}
		if rd.URL != leave || !strings.Contains(rd.Text, "touched") {
			t.Fatalf("%s: the page did not stay: %s %q", what, rd.URL, rd.Text)
		}
		wantDialogs(t, what+": the read after", rd.Dialogs)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: leave}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, clickButton("Touch")); err != nil {
		t.Fatal(err)
	}

	_, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	oe := wantCode(t, err, transport.CodeNavigationFailed, transport.Unknown)
	if !strings.Contains(oe.Message, "beforeunload dialog was dismissed") || oe.Retry != transport.RetryNever {
		t.Fatalf("navigate error %+v", oe)
	}
	wantDialogs(t, "navigate", oe.Dialogs, unload(transport.DialogDismissed))
	stillOnLeavePage("navigate")

	_, err = transport.Dispatch(bg, rt, transport.Reload{})
	oe = wantCode(t, err, transport.CodeNavigationFailed, transport.Unknown)
	wantDialogs(t, "reload", oe.Dialogs, unload(transport.DialogDismissed))
	stillOnLeavePage("reload")

	link := transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "link", Name: transport.Match("Leave the page")}}
	res, err := transport.Dispatch(bg, rt, link)
	if err != nil {
		t.Fatal(err)
	}
	if res.MutationState != transport.Verified {
		t.Fatalf("the click on the link: %+v", res)
	}
	wantDialogs(t, "click", res.Dialogs, unload(transport.DialogDismissed))
	stillOnLeavePage("click")

	link.Dialog = transport.DialogAccept
	res, err = transport.Dispatch(bg, rt, link)
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "click accepting", res.Dialogs, unload(transport.DialogAccepted))
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertURL, Value: site.URL + "/about"}); err != nil {
		t.Fatalf("the accepted click did not leave the page: %v", err)
	}

	// closeTab closes a guarded page without asking.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: leave}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, clickButton("Touch")); err != nil {
		t.Fatal(err)
	}
	lt, err := transport.Dispatch(bg, rt, transport.ListTabs{})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := transport.Dispatch(bg, rt, transport.CloseTab{Tab: lt.Selected})
	if err != nil {
		t.Fatal(err)
	}
	wantDialogs(t, "closeTab", closed.Dialogs)
	after, err := transport.Dispatch(bg, rt, transport.ListTabs{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Tabs) != 0 {
		t.Fatalf("the guarded tab is still open: %+v", after.Tabs)
	}
	wantDialogs(t, "listTabs after closeTab", after.Dialogs)
}

func browserURL(t *testing.T) string {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	return b.WebSocketURL()
}

func post(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Post(url, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
}

// echoSecret opens /dialogs and types the FB_DIALOG_SECRET secret into its Echo field, which
// the page's alert buttons then show.
func echoSecret(t *testing.T, rt transport.Caller, site string) {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/dialogs"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Echo")}, Text: transport.FromEnv("FB_DIALOG_SECRET")}); err != nil {
		t.Fatal(err)
	}
}
