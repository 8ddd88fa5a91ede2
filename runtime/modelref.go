package runtime

import "strings"

// modelRef is a ref as a model wrote it, without the brackets the outline shows it in: the
// outline writes `button [e3] "Log in"` and a tool takes "e3", but a model that copies
// "[e3]" from the page means the same element. Only one pair around the whole ref goes.
func modelRef(ref string) string {
	if len(ref) > 2 && strings.HasPrefix(ref, "[") && strings.HasSuffix(ref, "]") {
		return ref[1 : len(ref)-1]
	}
	return ref
}
