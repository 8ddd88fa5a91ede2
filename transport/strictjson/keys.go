package strictjson

import (
	"strings"
	"unicode"
)

// linearKeys is the object size up to which duplicates are found by comparing keys
// pairwise, which is faster than hashing for the small objects frames are made of. Past
// it a map keeps a hostile object with a million keys from costing a million squared.
const linearKeys = 16

// findRepeat returns the earlier key among an object's members that key repeats.
// Keys that differ only by letter case count as repeats: encoding/json would have
// matched both to the same field, so accepting them would let the frame mean different
// things to different readers. index is the object's fold map, made once the object
// has more than linearKeys members.
func findRepeat(members []value, index *map[string]string, key string) (earlier string, repeated bool) {
	if *index == nil && len(members) < linearKeys {
		for i := range members {
			if strings.EqualFold(members[i].key, key) {
				return members[i].key, true
			}
		}
		return "", false
	}
	if *index == nil {
		*index = make(map[string]string, 2*len(members))
		for i := range members {
			(*index)[foldKey(members[i].key)] = members[i].key
		}
	}
	f := foldKey(key)
	if k, ok := (*index)[f]; ok {
		return k, true
	}
	(*index)[f] = key
	return "", false
}

// foldKey maps every string to one representative of its strings.EqualFold class, so
// that the map path and the pairwise path agree on what a repeat is.
func foldKey(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || ('A' <= c && c <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune returns the smallest rune of r's simple case-folding orbit (the relation
// strings.EqualFold uses), lower-cased when that is an ASCII capital so that
// lower-case ASCII keys need no rewriting.
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	if 'A' <= m && m <= 'Z' {
		m += 'a' - 'A'
	}
	return m
}
