package reportview

import (
	"fmt"
	"strings"
)

// formatMs renders a duration compactly: "850 ms", "1.2 s", "3m04s".
func formatMs(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1f s", float64(ms)/1000)
	}
	s := ms / 1000
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// terminalSafe replaces control characters (ANSI escapes, carriage returns, newlines) so
// page-derived text in a report cannot rewrite or hide lines of the terminal summary.
func terminalSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, s)
}
