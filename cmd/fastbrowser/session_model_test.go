package main

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// An act in words in a session without a model is refused model_required, with the advice to
// name the element by ref or by role and name; nothing is recorded and the session stays
// usable.
func TestSessionActInWordsWithoutAModel(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/form")
	r := s.do(id, `{"act":"Click the Sign in button"}`)
	r.want(t, "an act in words without a model", 1, sessions.CodeModelRequired)
	if msg := r.str("error", "message"); !strings.Contains(msg, `{"click":"e12"}`) || !strings.Contains(msg, `"op":"act"`) {
		t.Errorf("the refusal does not say what to do instead: %q", msg)
	}
	s.doRead(id, "the model_required refusal")
	if rec := s.record(id); rec.HistoryLength != 1 || rec.Options.Model != nil {
		t.Errorf("record: history %d (want 1: the read only), model %+v (want none)", rec.HistoryLength, rec.Options.Model)
	}
	if l := s.listed(id); l["model"] != nil {
		t.Errorf("list shows a model for a session without one: %v", l["model"])
	}
}

// A malformed --model, or a model flag without --model, is a usage error (exit 2) naming
// the flag, and no session is left.
func TestSessionOpenMalformedModel(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--model", "gpt-4o-mini"}, "--model"},
		{[]string{"--model", "bard:gemini"}, "--model"},
		{[]string{"--model", "openai:"}, "--model"},
		{[]string{"--model", "openai:gpt-4o-mini", "--model-api-key-env", "NOT-A-NAME"}, "--model-api-key-env"},
		{[]string{"--model", "openai:gpt-4o-mini", "--model-base-url", "ftp://x"}, "--model-base-url"},
		{[]string{"--model-api-key-env", "K"}, "--model-api-key-env needs --model"},
	} {
		r := s.run(sessionCmdOpts{}, append(append([]string{"session", "open"}, c.flags...), site.URL+"/form")...)
		r.want(t, strings.Join(c.flags, " "), 2, sessions.CodeInvalidInput)
		if !strings.Contains(r.str("error", "message"), c.want) {
			t.Errorf("%v: message %q does not name %s", c.flags, r.str("error", "message"), c.want)
		}
	}
	if l := s.run(sessionCmdOpts{}, "session", "list"); !strings.Contains(l.stdout, `"sessions":[]`) {
		t.Errorf("a refused open left a session:\n%s", l.stdout)
	}
}
