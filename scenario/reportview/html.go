package reportview

import (
	"io"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
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

// WriteHTMLFile renders rep straight to a buffered file, through secrets' streaming
// scrubber (the run's secrets; nil means none), and writes it to path atomically, in mode's
// file mode (0600 private, 0640 group) whatever the umask: a half-written or world-readable
// page could leak what the scrubber is there to hide. The page is never whole in memory (a
// run of a thousand scenarios makes a large one).
func WriteHTMLFile(path string, rep *scenario.Report, artifactsDir string, scrub *secrets.Set, mode artifacts.Mode) error {
	data := buildPage(rep, artifactsDir, relativeBase(path, artifactsDir))
	return scenario.WriteOutputStream(path, mode, func(w io.Writer) error {
		if scrub == nil || scrub.Len() == 0 {
			return page().Execute(w, data)
		}
		sw := scrub.Writer(w)
		if err := page().Execute(sw, data); err != nil {
			return err
		}
		return sw.Flush()
	})
}
