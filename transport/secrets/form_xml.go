package secrets

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// xmlSpecial is the printable ASCII encoding/xml escapes.
const xmlSpecial = `&<>"'`

// xmlForms are v as encoding/xml writes it (junit.xml): attribute values and marshalled
// character data escape `"` as &#34;, `'` as &#39; and tab, LF and CR as &#x9;, &#xA; and
// &#xD;; character data written as a token (junit's multi-line blocks) keeps LF raw.
func xmlForms(v string) []string {
	if inert(v, xmlSpecial) {
		return nil
	}
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(v)) // a bytes.Buffer never fails
	return []string{b.String(), strings.ReplaceAll(b.String(), "&#xA;", "\n")}
}
