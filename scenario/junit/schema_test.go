package junit

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
)

func checkSchema(data []byte) error { return junittest.Check(data) }

// TestSchemaChecker proves the checker rejects what it should, so a passing TestSchema means
// something.
func TestSchemaChecker(t *testing.T) {
	good := render(t, fourScenarios())
	if err := checkSchema(good); err != nil {
		t.Fatalf("valid output rejected: %v\n%s", err, good)
	}
	bad := map[string]func(string) string{
		"unknown element in testcase": func(s string) string {
			return strings.Replace(s, "</testcase>", "<bogus/></testcase>", 1)
		},
		"unknown element in testsuite": func(s string) string {
			return strings.Replace(s, "<system-err>", "<extra/><system-err>", 1)
		},
		"unknown attribute": func(s string) string { return strings.Replace(s, `<testcase `, `<testcase line="3" `, 1) },
		"missing hostname":  func(s string) string { return regexp.MustCompile(` hostname="[^"]*"`).ReplaceAllString(s, "") },
		"missing classname": func(s string) string { return regexp.MustCompile(` classname="[^"]*"`).ReplaceAllString(s, "") },
		"properties after testcase": func(s string) string {
			return strings.Replace(s, "<system-out></system-out>", "<properties></properties><system-out></system-out>", 1)
		},
		"two results in one testcase": func(s string) string {
			return strings.Replace(s, "<skipped></skipped>", "<skipped></skipped><skipped></skipped>", 1)
		},
		"time in milliseconds": func(s string) string { return strings.Replace(s, `time="2.500"`, `time="2500ms"`, 1) },
		"zoned timestamp": func(s string) string {
			return strings.Replace(s, `timestamp="2025-03-04T04:06:07"`, `timestamp="2025-03-04T04:06:07Z"`, 1)
		},
		"text in testsuite": func(s string) string { return strings.Replace(s, "<system-err>", "stray<system-err>", 1) },
	}
	for name, mutate := range bad {
		out := mutate(string(good))
		if out == string(good) {
			t.Fatalf("%s: mutation did not apply", name)
		}
		if err := checkSchema([]byte(out)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
