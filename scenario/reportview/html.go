package reportview

import (
	"bytes"
	"io"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// HTML renders rep as one self-contained HTML page. Evidence files are read from
// artifactsDir (the run's DIR/artifacts) and embedded only when they verify against their
// metadata; see readEvidence.
// A step trace's pictures are not embedded: they are referenced relative to the page, which
// HTML takes to sit beside artifactsDir under the name "artifacts" (DIR/report.html).
func HTML(w io.Writer, rep *scenario.Report, artifactsDir string) error {
	return page().Execute(w, buildPage(rep, artifactsDir, "artifacts"))
}

// relativeBase is artifactsDir as a page written to htmlPath reaches it ("artifacts" when it
// cannot be said).
func relativeBase(htmlPath, artifactsDir string) string {
	from, err1 := filepath.Abs(filepath.Dir(htmlPath))
	to, err2 := filepath.Abs(artifactsDir)
	if err1 != nil || err2 != nil {
		return "artifacts"
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return "artifacts"
	}
	return filepath.ToSlash(rel)
}

// WriteHTMLFile renders rep to memory, passes the page through scrub (the caller's secret
// scrubber; nil means none) and writes it to path atomically, in mode's file mode (0600
// private, 0640 group) whatever the umask: a half-written or world-readable page could leak
// what the scrubber is there to hide.
func WriteHTMLFile(path string, rep *scenario.Report, artifactsDir string, scrub func([]byte) []byte, mode artifacts.Mode) error {
	var buf bytes.Buffer
	if err := page().Execute(&buf, buildPage(rep, artifactsDir, relativeBase(path, artifactsDir))); err != nil {
		return err
	}
	out := buf.Bytes()
	if scrub != nil {
		out = scrub(out)
	}
	return scenario.WriteOutputFile(path, out, mode)
}
