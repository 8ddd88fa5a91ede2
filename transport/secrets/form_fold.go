package secrets

import "strings"

// foldedForms are v itself and the spellings the project and the browser re-space or repair
// it into: the outline and assert fold every run of white space to one space and trim the
// ends (strings.Fields), a page's innerText collapses runs of ASCII white space, and JSON
// encoding and the browser replace invalid UTF-8 with U+FFFD. v comes first.
func foldedForms(v string) []string {
	collapsed := collapseASCIISpace(v)
	return []string{
		v,
		strings.Join(strings.Fields(v), " "),
		collapsed,
		strings.Trim(collapsed, " "),
		strings.ToValidUTF8(v, "\uFFFD"),
	}
}

// collapseASCIISpace replaces each run of the HTML spec's ASCII white space (space, tab,
// LF, FF, CR) with one space, as CSS white-space:normal renders text.
func collapseASCIISpace(v string) string {
	var b strings.Builder
	inRun := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case ' ', '\t', '\n', '\f', '\r':
			if !inRun {
				b.WriteByte(' ')
			}
			inRun = true
		default:
			b.WriteByte(c)
			inRun = false
		}
	}
	return b.String()
}
