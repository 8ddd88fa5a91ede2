package chromium

import (
	"regexp"
	"strings"
)

var devToolsLine = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// DevToolsTap returns a process StderrTap that sends the first DevTools URL it sees on found.
// It runs on the stderr drain, so it never blocks: found is buffered and sent to only once.
func DevToolsTap(found chan<- string) func(string) {
	sent := false
	return func(line string) {
		if sent || !strings.Contains(line, "DevTools listening on") {
			return
		}
		if m := devToolsLine.FindStringSubmatch(line); m != nil {
			sent = true
			found <- m[1]
		}
	}
}
