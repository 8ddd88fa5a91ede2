// Package junittest checks JUnit XML against the rules of the Jenkins/Ant JUnit XSD that CI
// systems read (GitHub and GitLab reporters, the Jenkins junit plugin), with Maven Surefire's
// rerun and flaky elements, so tests of the writer and of whole runs can assert a file is
// well-formed for them. Test support only.
package junittest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// The rules of the Jenkins/Ant JUnit XSD (windyroad/JUnit-Schema JUnit.xsd) with the
// extensions CI tools read (<skipped>, testcase <system-out>/<system-err>, root attributes,
// and Surefire's <rerunFailure>, <rerunError>, <flakyFailure>, <flakyError> in the places of
// surefire-test-report-3.0.xsd), written as data so Check can walk the token stream against
// them.

// particle is one step of an element's content sequence: one of names, min..max times
// (max < 0: unbounded).
type particle struct {
	names    []string
	min, max int
}

type elemRule struct {
	required []string
	optional []string
	seq      []particle
	text     bool // may hold non-whitespace character data
	// children, when set, checks the element's children as a whole (counts by name) when it
	// closes: rules a sequence cannot say.
	children func(counts map[string]int) error
}

// rerunRule is Surefire's shape of a rerun or flaky element: the detail in <stackTrace>.
var rerunRule = elemRule{
	required: []string{"type"},
	optional: []string{"message"},
	seq: []particle{
		{[]string{"stackTrace"}, 1, 1},
		{[]string{"system-out"}, 0, 1},
		{[]string{"system-err"}, 0, 1},
	},
}

var schemaRules = map[string]elemRule{
	"testsuites": {
		optional: []string{"name", "tests", "failures", "errors", "skipped", "time", "timestamp"},
		seq:      []particle{{[]string{"testsuite"}, 0, -1}},
	},
	"testsuite": {
		required: []string{"name", "tests", "failures", "errors", "time", "timestamp", "hostname", "id", "package"},
		optional: []string{"skipped"},
		seq: []particle{
			{[]string{"properties"}, 0, 1},
			{[]string{"testcase"}, 0, -1},
			{[]string{"system-out"}, 0, 1},
			{[]string{"system-err"}, 0, 1},
		},
	},
	"properties": {seq: []particle{{[]string{"property"}, 0, -1}}},
	"property":   {required: []string{"name", "value"}},
	"testcase": {
		required: []string{"name", "classname", "time"},
		// file: the scenario file, the attribute GitLab, pytest and jest-junit write and
		// GitLab shows; readers that do not know it (Jenkins) ignore it.
		optional: []string{"file"},
		seq: []particle{
			{[]string{"failure"}, 0, 1},
			{[]string{"rerunFailure"}, 0, -1},
			{[]string{"flakyFailure"}, 0, -1},
			{[]string{"skipped"}, 0, 1},
			{[]string{"error"}, 0, 1},
			{[]string{"rerunError"}, 0, -1},
			{[]string{"flakyError"}, 0, -1},
			{[]string{"system-out"}, 0, 1},
			{[]string{"system-err"}, 0, 1},
		},
		children: testcaseResults,
	},
	"rerunFailure": rerunRule,
	"rerunError":   rerunRule,
	"flakyFailure": rerunRule,
	"flakyError":   rerunRule,
	"stackTrace":   {text: true},
	"failure":      {required: []string{"message", "type"}, text: true},
	"error":        {required: []string{"message", "type"}, text: true},
	"skipped":      {optional: []string{"message"}},
	"system-out":   {text: true},
	"system-err":   {text: true},
}

// Attribute value types from the XSD: counts and ids are non-negative integers, time is a
// decimal, timestamp the ISO8601_DATETIME_PATTERN without zone.
var (
	decimalRE   = regexp.MustCompile(`^\d+(\.\d+)?$`)
	timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`)
)

func checkAttrValue(elem, name, v string) error {
	switch name {
	case "tests", "failures", "errors", "skipped", "id":
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return fmt.Errorf("<%s %s=%q>: not a non-negative integer", elem, name, v)
		}
	case "time":
		if !decimalRE.MatchString(v) {
			return fmt.Errorf("<%s time=%q>: not decimal seconds", elem, v)
		}
	case "timestamp":
		if !timestampRE.MatchString(v) {
			return fmt.Errorf("<%s timestamp=%q>: not ISO 8601 without zone", elem, v)
		}
	case "name", "hostname", "package", "classname":
		if strings.TrimSpace(v) == "" && elem != "testsuites" {
			return fmt.Errorf("<%s %s>: empty", elem, name)
		}
	}
	return nil
}

// testcaseResults: one result at most (the Ant XSD's choice); a flaky element only on a
// testcase that passed (Surefire writes them for a pass on a rerun), a rerun element only on
// one that failed or errored.
func testcaseResults(n map[string]int) error {
	results := n["failure"] + n["skipped"] + n["error"]
	switch {
	case results > 1:
		return errors.New("<testcase>: more than one of <failure>, <skipped>, <error>")
	case results > 0 && n["flakyFailure"]+n["flakyError"] > 0:
		return errors.New("<testcase>: a flaky element on a testcase that did not pass")
	case n["failure"]+n["error"] == 0 && n["rerunFailure"]+n["rerunError"] > 0:
		return errors.New("<testcase>: a rerun element on a testcase that neither failed nor errored")
	}
	return nil
}

// open is an element being read: its rule and where it is in its sequence.
type open struct {
	name     string
	rule     elemRule
	pos      int            // index into rule.seq
	count    int            // occurrences of seq[pos] so far
	children map[string]int // children seen, by name
}

// accept advances o's sequence over a child element, skipping particles already satisfied.
func (o *open) accept(child string) error {
	if o.children == nil {
		o.children = map[string]int{}
	}
	o.children[child]++
	for o.pos < len(o.rule.seq) {
		p := o.rule.seq[o.pos]
		if contains(p.names, child) && (p.max < 0 || o.count < p.max) {
			o.count++
			return nil
		}
		if o.count < p.min {
			return fmt.Errorf("<%s>: <%s> where %v is required", o.name, child, p.names)
		}
		o.pos, o.count = o.pos+1, 0
	}
	return fmt.Errorf("<%s>: element <%s> not allowed here", o.name, child)
}

// finish checks the remaining particles' minimums, and the children as a whole, when o
// closes.
func (o *open) finish() error {
	if o.rule.children != nil {
		if err := o.rule.children(o.children); err != nil {
			return err
		}
	}
	for i := o.pos; i < len(o.rule.seq); i++ {
		n := 0
		if i == o.pos {
			n = o.count
		}
		if n < o.rule.seq[i].min {
			return fmt.Errorf("<%s>: missing %v", o.name, o.rule.seq[i].names)
		}
	}
	return nil
}

// Check walks data's token stream and returns the first violation of schemaRules: an
// unknown element or attribute, a misplaced child, a missing required attribute, a badly
// typed value, or text where the schema has none.
func Check(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*open
	roots := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			rule, ok := schemaRules[name]
			if !ok || t.Name.Space != "" {
				return fmt.Errorf("unknown element <%s>", name)
			}
			if len(stack) == 0 {
				if roots++; name != "testsuites" || roots > 1 {
					return fmt.Errorf("root must be one <testsuites>, got <%s>", name)
				}
			} else if err := stack[len(stack)-1].accept(name); err != nil {
				return err
			}
			if err := checkAttrs(name, rule, t.Attr); err != nil {
				return err
			}
			stack = append(stack, &open{name: name, rule: rule})
		case xml.EndElement:
			if err := stack[len(stack)-1].finish(); err != nil {
				return err
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if strings.TrimSpace(string(t)) == "" {
				continue
			}
			if len(stack) == 0 || !stack[len(stack)-1].rule.text {
				return fmt.Errorf("text %.20q not allowed here", t)
			}
		case xml.ProcInst:
			if t.Target != "xml" || roots > 0 {
				return fmt.Errorf("processing instruction <?%s?> not allowed", t.Target)
			}
		default:
			return fmt.Errorf("token %T not allowed", t)
		}
	}
	if roots != 1 {
		return errors.New("no <testsuites> root")
	}
	return nil
}

func checkAttrs(elem string, rule elemRule, attrs []xml.Attr) error {
	seen := map[string]bool{}
	for _, a := range attrs {
		n := a.Name.Local
		if a.Name.Space != "" || !(contains(rule.required, n) || contains(rule.optional, n)) || seen[n] {
			return fmt.Errorf("<%s>: attribute %q not allowed", elem, n)
		}
		seen[n] = true
		if err := checkAttrValue(elem, n, a.Value); err != nil {
			return err
		}
	}
	for _, n := range rule.required {
		if !seen[n] {
			return fmt.Errorf("<%s>: required attribute %q missing", elem, n)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
