package junit

import (
	"fmt"
	"path"
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
