package junit

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// classname applies the rule in the package doc: clean, drop a leading "/", "." -> "_",
// "/" -> ".". Replacing "." first keeps the two substitutions from interfering.
func classname(file string) string {
	p := strings.TrimLeft(path.Clean(file), "/")
	if p == "" || p == "." {
		return "fastbrowser"
	}
	p = strings.ReplaceAll(p, ".", "_")
	return strings.ReplaceAll(p, "/", ".")
}

// seconds formats milliseconds as xs:decimal seconds with 3 decimals, by integer arithmetic
// so no float rounding can show up. A negative duration (clock step) is written as 0.
func seconds(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// timestamp is the XSD's ISO8601_DATETIME_PATTERN: no zone suffix, so it is written in UTC to
// mean the same thing on every CI machine.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

// caseFile is the testcase's file attribute: the scenario file relative to the working
// directory (CI runs from the repository root, so this is the repository path GitLab links),
// with "/" separators. The report names the file as it was given; an absolute path inside
// the working directory is made relative, any other path is kept as it is.
func caseFile(file string) string {
	if file == "" {
		return ""
	}
	if filepath.IsAbs(file) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				file = rel
			}
		}
	}
	return path.Clean(filepath.ToSlash(file))
}

// projectClass prefixes a project's testcases' classname ("v1."), so CI groups them by
// project as well as by file; "" without a project.
func projectClass(project string) string {
	if project == "" {
		return ""
	}
	return strings.ReplaceAll(project, ".", "_") + "."
}
