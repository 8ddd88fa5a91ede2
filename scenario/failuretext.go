package scenario

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Failure is a failed operation as Playwright's reporters show one: what was expected and
// what the page had (with a caret under the first character where they differ), the call
// log, and where the operation is written with the lines around it. The console, `report`,
// junit.xml and report.html all render it from here.
type Failure struct {
	Message  string // the error's code and message: "assertion_failed: text … did not appear"
	Expected string // as shown: a string quoted, a list or a count as written ("" none)
	Received string // as shown; ReceivedNone when an expectation had nothing to compare
	// Caret is the one-line diff: blanks and "^" under the first character of Received that
	// differs from Expected, counted from the start of the value ("" when they do not
	// differ or nothing was received). Lines writes it under "Received: ".
	Caret     string
	CallLog   []string
	Location  string // "path:line:column" ("" when not known)
	CodeFrame string
}

// ReceivedNone is what Received shows when an assertion found nothing to compare (the
// element never appeared), as Playwright's "<element(s) not found>".
const ReceivedNone = "<element(s) not found>"

// valueIndent is the width of "Expected: " and "Received: ", so the values line up.
const valueIndent = "          "

// FailureOf is o's failure, nil when it has no error. Expected and Received come from the
// error (the assertion's own, scrubbed); an error without them falls back to what the
// scenario file asked for (the assertion's kind and value).
func FailureOf(o *OperationReport) *Failure {
	e := o.Error
	if e == nil {
		return nil
	}
	f := &Failure{Message: string(e.Code) + ": " + e.Message, CodeFrame: o.CodeFrame}
	for _, l := range e.CallLog {
		f.CallLog = append(f.CallLog, lineSafe(l))
	}
	if o.Location != nil {
		f.Location = o.Location.String()
	}
	switch {
	case e.Expected != "":
		f.Expected = shownValue(e.Expected)
		if e.Received == "" {
			f.Received = ReceivedNone
		} else {
			f.Received = shownValue(e.Received)
			f.Caret = caretUnder(f.Expected, f.Received)
		}
	case o.Expected() != "":
		f.Expected = o.Expected() // kind and value as the file wrote them: title "Dashboard"
	}
	f.Expected, f.Received = lineSafe(f.Expected), lineSafe(f.Received)
	return f
}

// Lines renders f; withMessage starts it with "Error: <message>" (a caller whose own first
// line already carries the message leaves it out):
//
//	Error: assertion_failed: …
//	Expected: "feed the dog"
//	Received: "feed the cat"
//	                    ^
//	Call log:
//	  - waiting for listitem to have text "feed the dog"
//	  - 3 × text "feed the cat"
//	at scenarios/todo.json:12:7
//	  10 | …
//	> 12 |     {
//	     |     ^
func (f *Failure) Lines(withMessage bool) []string {
	var out []string
	if withMessage {
		out = append(out, "Error: "+lineSafe(f.Message))
	}
	out = append(out, f.ValueLines()...)
	if len(f.CallLog) > 0 {
		out = append(out, "Call log:")
		for _, l := range f.CallLog {
			out = append(out, "  - "+l)
		}
	}
	if f.Location != "" {
		out = append(out, "at "+lineSafe(f.Location))
	}
	if f.CodeFrame != "" {
		out = append(out, strings.Split(f.CodeFrame, "\n")...)
	}
	return out
}

// ValueLines are the "Expected: " and "Received: " lines and the caret line under them,
// lined up (report.html shows them in one <pre>).
func (f *Failure) ValueLines() []string {
	var out []string
	if f.Expected != "" {
		out = append(out, "Expected: "+f.Expected)
	}
	if f.Received != "" {
		out = append(out, "Received: "+f.Received)
		if f.Caret != "" {
			out = append(out, valueIndent+f.Caret)
		}
	}
	return out
}

// shownValue is a value as the failure shows it: a JSON string, list or number as written
// (the assertion wrote a list of texts as a JSON array, a count as digits), anything else
// quoted as a Go/JSON string, so spaces at its ends and escapes can be seen.
func shownValue(v string) string {
	t := strings.TrimSpace(v)
	if t == v && json.Valid([]byte(v)) && (strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "[") || isNumber(v)) {
		return v
	}
	return strconv.Quote(v)
}

func isNumber(v string) bool {
	_, err := strconv.ParseFloat(v, 64)
	return err == nil && v != "" && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}

// caretUnder is the blank before, and the "^" under, the first character of received that
// differs from expected ("" when they are the same: a negated assertion that held).
func caretUnder(expected, received string) string {
	e, r := []rune(expected), []rune(received)
	i := 0
	for i < len(e) && i < len(r) && e[i] == r[i] {
		i++
	}
	if i == len(e) && i == len(r) {
		return ""
	}
	return strings.Repeat(" ", i) + "^"
}

// lineSafe keeps a shown value on its line: a control character (a newline in a page's
// text, an escape sequence) becomes U+FFFD, so nothing a page wrote can move a terminal's
// cursor or break a report's layout.
func lineSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, s)
}
