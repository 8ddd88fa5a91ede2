package secrets

import (
	"html"
	htmltemplate "html/template"
	"strings"
	"text/template"
)

// Browsers serialise page text (innerHTML, outerHTML) with the HTML spec's minimal
// escaping, which differs from Go's escapers: text nodes keep quotes raw, and attribute
// values keep < and > raw in older engines and use &quot; rather than &#34;.
var (
	htmlTextNode = strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", "<", "&lt;", ">", "&gt;")
	htmlAttrOld  = strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", `"`, "&quot;")
	htmlAttrNew  = strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
)

// reportText is how report.html (html/template) writes a value into element text or a
// quoted attribute. Its contextual escaper is not HTMLEscapeString: it also writes '+' as
// &#43;, so it is taken from a template run rather than reimplemented.
var reportText = htmltemplate.Must(htmltemplate.New("text").Parse(`{{.}}`))

// htmlSpecial is the printable ASCII one of the HTML escapers below escapes.
const htmlSpecial = `&<>"'+`

// htmlForms are v as HTML text: Go's escapers (our HTML report uses them; they differ on
// NUL and '+') and the browser's serialisation of text nodes and attribute values.
func htmlForms(v string) []string {
	if inert(v, htmlSpecial) {
		return nil
	}
	var b strings.Builder
	_ = reportText.Execute(&b, v) // a string into a strings.Builder never fails
	return []string{
		html.EscapeString(v),
		template.HTMLEscapeString(v),
		b.String(),
		htmlTextNode.Replace(v),
		htmlAttrOld.Replace(v),
		htmlAttrNew.Replace(v),
	}
}
