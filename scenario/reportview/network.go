package reportview

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// NetworkLines is how many network entries the console shows under a failed operation; the
// rest are in the evidence file it names.
const NetworkLines = 5

// ByteSize is n bytes for people: "512 B", "1.5 kB", "2.0 MB" (powers of 1000, as browsers'
// network panels show them).
func ByteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
}

// NetworkLine is one network evidence entry on a line: "GET http://host/img/logo.png 404
// (1.2 kB)", "POST http://host/api failed", with "×3" when it was seen more than once.
func NetworkLine(e transport.NetworkEntry) string {
	line := e.Method + " " + e.URL + e.Path
	if e.Status != 0 {
		line += fmt.Sprintf(" %d", e.Status)
	} else {
		line += " " + e.Category
	}
	if e.Size > 0 {
		line += " (" + ByteSize(e.Size) + ")"
	}
	if e.Count > 1 {
		line += fmt.Sprintf(" ×%d", e.Count)
	}
	return line
}

// WriteNetworkLines writes the first NetworkLines entries of the network evidence among
// metas (read from artifactsDir and verified), one a line, so a 404'd file is named on the
// console; nothing when there is none or it does not verify (its path is printed elsewhere).
func WriteNetworkLines(w io.Writer, indent, artifactsDir string, metas []artifacts.Meta) {
	for _, m := range metas {
		if m.Kind != transport.PartNetwork {
			continue
		}
		data, err := readEvidence(artifactsDir, m)
		var s transport.NetworkSummary
		if err != nil || json.Unmarshal(data, &s) != nil {
			continue
		}
		for i, e := range s.Entries {
			if i == NetworkLines {
				fmt.Fprintf(w, "%snetwork: … %d more\n", indent, len(s.Entries)-i)
				break
			}
			fmt.Fprintf(w, "%snetwork: %s\n", indent, terminalSafe(NetworkLine(e)))
		}
	}
}
