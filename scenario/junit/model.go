package junit

import "encoding/xml"

// The structs below mirror the JUnit XSD element for element; encoding/xml does the escaping.
// Field order is element order, which the XSD's sequences fix.

type testSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	totals
	Suites []testSuite `xml:"testsuite"`
}

type testSuite struct {
	totals
	Hostname   string     `xml:"hostname,attr"`
	ID         int        `xml:"id,attr"`
	Package    string     `xml:"package,attr"`
	Properties properties `xml:"properties"`
	Cases      []testCase `xml:"testcase"`
	// The strict XSD requires both (empty is fine); suite-level output has nothing to say.
	SystemOut string `xml:"system-out"`
	SystemErr string `xml:"system-err"`
}

// totals are the attributes the run and each suite share, in the XSD's order: encoding/xml
// writes an embedded struct's fields where it is embedded.
type totals struct {
	Name      string `xml:"name,attr"`
	Tests     int    `xml:"tests,attr"`
	Failures  int    `xml:"failures,attr"`
	Errors    int    `xml:"errors,attr"`
	Skipped   int    `xml:"skipped,attr"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr"`
}

// properties is a struct, not a "properties>property" path, so that an empty list is still
// written: the strict XSD requires the element.
type properties struct {
	Items []property `xml:"property"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// testCase's result elements are in the order of Maven Surefire's testcase sequence
// (surefire-test-report-3.0.xsd), which is where its rerun and flaky elements may go; at
// most one of failure, skipped and error is ever set (the Ant XSD's rule).
type testCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	// File is the scenario file as GitLab, pytest and jest-junit write it (relative to the
	// working directory): GitLab shows it beside the test and links it to the repository.
	File          string    `xml:"file,attr,omitempty"`
	Failure       *problem  `xml:"failure,omitempty"`
	RerunFailures []rerun   `xml:"rerunFailure"`
	FlakyFailures []rerun   `xml:"flakyFailure"`
	Skipped       *skipped  `xml:"skipped,omitempty"`
	Error         *problem  `xml:"error,omitempty"`
	RerunErrors   []rerun   `xml:"rerunError"`
	FlakyErrors   []rerun   `xml:"flakyError"`
	SystemOut     textBlock `xml:"system-out,omitempty"`
}

// rerun is one of Surefire's <rerunFailure>, <rerunError>, <flakyFailure> and <flakyError>:
// an attempt other than the one the testcase's own result describes. Surefire wants the
// detail in a <stackTrace> child.
type rerun struct {
	Message    string    `xml:"message,attr"`
	Type       string    `xml:"type,attr"`
	StackTrace textBlock `xml:"stackTrace"`
	SystemOut  textBlock `xml:"system-out,omitempty"`
}

type skipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// problem is <failure> or <error>: same shape, the element name says which. Its Body is a
// textBlock written by MarshalXML, because a ",chardata" field would have its newlines
// escaped too.
type problem struct {
	Message string
	Type    string
	Body    textBlock
}

func (p problem) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = append(start.Attr,
		xml.Attr{Name: xml.Name{Local: "message"}, Value: p.Message},
		xml.Attr{Name: xml.Name{Local: "type"}, Value: p.Type})
	return p.Body.MarshalXML(e, start)
}

// textBlock is multi-line element text. encoding/xml escapes "\n" as "&#xA;" in character
// data it marshals itself, which is valid but makes the raw file (what a CI log or a person
// opening it sees) one unreadable line; a CharData token keeps real newlines.
type textBlock string

func (t textBlock) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if t != "" {
		if err := e.EncodeToken(xml.CharData(t)); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}
