package junittest

import "encoding/xml"

// Case is one decoded <testcase>: its result and Surefire's rerun and flaky elements, read
// independently of the writer's own model.
type Case struct {
	Name          string   `xml:"name,attr"`
	Failure       *Problem `xml:"failure"`
	Error         *Problem `xml:"error"`
	Skipped       *Problem `xml:"skipped"`
	RerunFailures []Rerun  `xml:"rerunFailure"`
	RerunErrors   []Rerun  `xml:"rerunError"`
	FlakyFailures []Rerun  `xml:"flakyFailure"`
	FlakyErrors   []Rerun  `xml:"flakyError"`
}

// Problem is a <failure>, <error> or <skipped>.
type Problem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// Rerun is a <rerunFailure>, <rerunError>, <flakyFailure> or <flakyError>.
type Rerun struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out"`
}

// Cases checks data (Check) and returns every testcase in document order.
func Cases(data []byte) ([]Case, error) {
	if err := Check(data); err != nil {
		return nil, err
	}
	var doc struct {
		Suites []struct {
			Cases []Case `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var cases []Case
	for _, s := range doc.Suites {
		cases = append(cases, s.Cases...)
	}
	return cases, nil
}
