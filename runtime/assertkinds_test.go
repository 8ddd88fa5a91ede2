package runtime_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestAssertStatusPageClassNotAndTimeout: status and pageClass assertions compare the
// document's HTTP status and observe's page class; not turns any kind round; timeoutMs ends
// a bounded wait sooner. A failure says what was expected and what was found.
func TestAssertStatusPageClassNotAndTimeout(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	assert := func(a transport.Assert) error {
		t.Helper()
		_, err := transport.Dispatch(bg, rt, a)
		return err
	}
	failsWith := func(a transport.Assert, msg string) {
		t.Helper()
		err := assert(a)
		if oe := transport.AsOperationError("", err); oe.Code != transport.CodeAssertionFailed || !strings.Contains(oe.Message, msg) {
			t.Fatalf("assert %+v: %v, want assertion_failed saying %q", a, err, msg)
		}
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []transport.Assert{
		{Kind: transport.AssertStatus, Value: "200"},
		{Kind: transport.AssertPageClass, Value: transport.PageLogin},
		{Kind: transport.AssertTextContains, Value: "No such words", Not: true},
		{Kind: transport.AssertStatus, Value: "500", Not: true, Wait: transport.WaitNone},
	} {
		if err := assert(a); err != nil {
			t.Fatalf("assert %+v on /form: %v", a, err)
		}
	}
	failsWith(transport.Assert{Kind: transport.AssertTextContains, Value: "Sign in", Not: true, Wait: transport.WaitNone}, `textContains still matched "Sign in" on one read`)
	failsWith(transport.Assert{Kind: transport.AssertTextContains, Value: "No such words", TimeoutMs: 400}, `text "No such words" did not appear within the assertion's timeoutMs (400ms) (searched the page's visible text, 99 characters)`)

	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/status/500"}); err != nil {
		t.Fatal(err)
	}
	failsWith(transport.Assert{Kind: transport.AssertStatus, Value: "200", Wait: transport.WaitNone}, "status was not 200 on one read (status 500)")
	failsWith(transport.Assert{Kind: transport.AssertPageClass, Value: transport.PageNormal, Wait: transport.WaitNone}, `page class was not "normal" on one read (page class "http_error")`)
	if err := assert(transport.Assert{Kind: transport.AssertPageClass, Value: transport.PageHTTPError}); err != nil {
		t.Fatal(err)
	}

	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertStatus, Value: "OK"})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeInvalidRequest || oe.Path != "request.value" {
		t.Fatalf("status OK: %v", err)
	}
	_, err = transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "x", TimeoutMs: 120001})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeBudgetExceeded || oe.Path != "request.timeoutMs" {
		t.Fatalf("timeoutMs 120001: %v", err)
	}
}
