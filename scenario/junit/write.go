package junit

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// Write writes rep as JUnit XML (see the package doc for the mapping) to w.
func Write(w io.Writer, rep *scenario.Report) error { return encode(w, build(rep, hostname())) }

func encode(w io.Writer, m *testSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteFile writes rep as JUnit XML to path. When scrub is non-nil (the run's secret
// scrubber: a secret may have reached an error message) it is applied to every text before
// encoding, so XML escaping cannot hide a secret from it, and then to the rendered bytes. The
// file is written atomically (temp file in the same directory, then rename) so a CI step never
// reads a half-written report, and has mode's file mode (0600 private) whatever the umask,
// like report.json.
func WriteFile(path string, rep *scenario.Report, scrub func([]byte) []byte, mode artifacts.Mode) error {
	m := build(rep, hostname())
	if scrub != nil {
		scrubModel(m, scrub)
	}
	var buf bytes.Buffer
	if err := encode(&buf, m); err != nil {
		return err
	}
	data := buf.Bytes()
	if scrub != nil {
		data = scrub(data)
	}
	return scenario.WriteOutputFile(path, data, mode)
}

// hostname is the XSD's "machine executing the test or 'localhost'".
func hostname() string {
	if h, err := os.Hostname(); err == nil {
		if h = xmlText(h); h != "" {
			return h
		}
	}
	return "localhost"
}
