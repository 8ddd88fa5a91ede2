package secrets

import (
	"html"
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

// htmlForms are v as HTML text: Go's two escapers (our HTML report uses them; they differ
// on NUL) and the browser's serialisation of text nodes and attribute values.
func htmlForms(v string) []string {
	return []string{
		html.EscapeString(v),
		template.HTMLEscapeString(v),
		htmlTextNode.Replace(v),
		htmlAttrOld.Replace(v),
		htmlAttrNew.Replace(v),
	}
}
