package junit

import (
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// Property names carry a "fastbrowser." prefix so they cannot clash with what a CI tool or
// another reporter merged into the same file puts there.
const (
	propRunID          = "fastbrowser.runId"
	propBrowserVersion = "fastbrowser.browserVersion"
	propSHA256         = "fastbrowser.sha256"
	propEnforcement    = "fastbrowser.enforcement"
)

// suiteAcc is what a suite needs beyond its XML form while scenarios are added to it.
type suiteAcc struct {
	ms          int64
	sha256      string
	enforcement []string
}

// build maps rep to the XML model: one suite per file in first-appearance order, one case per
// scenario. Counts are derived from the cases, so suite and root totals always add up.
func build(rep *scenario.Report, host string) *testSuites {
	ts := timestamp(rep.StartedAt)
	root := &testSuites{totals: totals{Name: "fastbrowser", Time: seconds(rep.DurationMs), Timestamp: ts}}
	byFile := map[string]int{}
	var accs []suiteAcc
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		k, ok := byFile[s.File]
		if !ok {
			k = len(root.Suites)
			byFile[s.File] = k
			name := xmlText(s.File)
			if name == "" {
				name = "fastbrowser" // the XSD wants a non-empty name
			}
			root.Suites = append(root.Suites, testSuite{totals: totals{Name: name, Timestamp: ts}, Hostname: host, ID: k, Package: "fastbrowser"})
			accs = append(accs, suiteAcc{})
		}
		suite, acc := &root.Suites[k], &accs[k]
		tc := testCaseOf(s)
		suite.Cases = append(suite.Cases, tc)
		suite.Tests++
		switch {
		case tc.Failure != nil:
			suite.Failures++
		case tc.Error != nil:
			suite.Errors++
		case tc.Skipped != nil:
			suite.Skipped++
		}
		if s.DurationMs > 0 {
			acc.ms += s.DurationMs
		}
		if acc.sha256 == "" {
			acc.sha256 = s.SHA256
		}
		acc.enforcement = union(acc.enforcement, s.Enforcement)
	}
	for k := range root.Suites {
		suite, acc := &root.Suites[k], &accs[k]
		suite.Time = seconds(acc.ms)
		var props []property
		if k == 0 {
			props = addProp(props, propRunID, rep.RunID)
			props = addProp(props, propBrowserVersion, rep.Browser.Version)
		}
		props = addProp(props, propSHA256, acc.sha256)
		props = addProp(props, propEnforcement, strings.Join(acc.enforcement, ","))
		suite.Properties.Items = props
		root.Tests += suite.Tests
		root.Failures += suite.Failures
		root.Errors += suite.Errors
		root.Skipped += suite.Skipped
	}
	return root
}

// addProp skips empty values: "unknown" is better said by absence than by value="".
func addProp(props []property, name, value string) []property {
	if value = xmlText(value); value == "" {
		return props
	}
	return append(props, property{Name: name, Value: value})
}

// union appends the values of more not yet in have, keeping first-appearance order. The
// scenarios of one file normally agree; if they do not, the suite shows every mode used.
func union(have, more []string) []string {
	for _, v := range more {
		found := false
		for _, h := range have {
			found = found || h == v
		}
		if !found {
			have = append(have, v)
		}
	}
	return have
}
