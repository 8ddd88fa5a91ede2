package scenario

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// checkTags bounds a file's tags: a few short words that `run --grep` matches, as
// Playwright's tags ("@smoke"). The "@" is not required (Playwright requires it; a tag here
// is only ever matched, so "routing" is as good a label). Spaces are refused so a tag reads
// as one word in the console and in a grep over "id description tags".
func checkTags(tags []string) error {
	if len(tags) > budgets.ScenarioTags {
		return fail("tags", fmt.Sprintf("expected at most %d tags, got %d", budgets.ScenarioTags, len(tags)))
	}
	seen := map[string]bool{}
	for i, t := range tags {
		path := fmt.Sprintf("tags[%d]", i)
		if n := utf8.RuneCountInString(t); n == 0 || n > budgets.ScenarioTagChars {
			return fail(path, fmt.Sprintf("expected 1–%d characters, got %d", budgets.ScenarioTagChars, n))
		}
		if strings.IndexFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
			return fail(path, "expected a tag without spaces or control characters, such as \"@smoke\"")
		}
		if seen[t] {
			return fail(path, fmt.Sprintf("tag %q is listed twice", t))
		}
		seen[t] = true
	}
	return nil
}
