package secrets

// minFormLen is the shortest form kept, in bytes. A value passes MinLen in runes, so its
// raw form always qualifies; the bound only drops fragments (short base64 middles).
const minFormLen = 4

// formsOf returns every spelling of v that output may carry, deduplicated, raw v included.
// Each encoder lives in its own file with the reason it exists.
func formsOf(v string) []string {
	var all []string
	all = append(all, v)
	all = append(all, urlForms(v)...)
	all = append(all, base64Forms(v)...)
	all = append(all, jsonForms(v)...)
	all = append(all, htmlForms(v)...)

	seen := make(map[string]struct{}, len(all))
	out := all[:0]
	for _, f := range all {
		if len(f) < minFormLen {
			continue
		}
		if _, ok := seen[f]; ok {
			continue
		}
		seen[f] = struct{}{}
		out = append(out, f)
	}
	return out
}
