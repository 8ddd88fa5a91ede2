package reportview

import (
	_ "embed"
	"html/template"
	"strings"
	"sync"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

//go:embed page.gohtml
var pageSource string

// page is parsed once, on first use (not at start: every fastbrowser process, each worker
// included, links this package): html/template escapes every report value for its
// context, so report text (page titles, messages, console lines) can never become markup.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"statusClass": statusClass,
		"borderClass": func(s string) string { return "b-" + known(s) },
		"opClass":     known,
		"levelClass":  levelClass,
		"join":        strings.Join,
		"short":       func(s string) string { return textclip.Clip(s, 12) },
		"byteSize":    ByteSize,
	}).Parse(pageSource))
})

// known maps a status to a fixed CSS class name, never to report text.
func known(status string) string {
	switch status {
	case scenario.StatusPassed, scenario.StatusFailed, scenario.StatusError, scenario.StatusInterrupted, scenario.StatusSkipped, scenario.StatusFlaky:
		return status
	case "ok":
		return scenario.StatusPassed
	}
	return "other"
}

func statusClass(status string) string { return "s-" + known(status) }

func levelClass(level string) string {
	switch level {
	case "error":
		return "s-failed"
	case "warning":
		return "s-error"
	}
	return "s-other"
}
