package strictjson

import (
	"strconv"
	"strings"
)

// path tracks where a walk is in the input. Segments are kept unrendered because a
// path is only turned into a string when something is refused (or handed to an
// Unmarshaler), and rendering on every step would dominate the cost of a decode.
type path struct {
	base string
	segs []segment
}

type segment struct {
	key     string
	index   int
	isIndex bool
}

func newPath(base string) path {
	// Room for the nesting of any ordinary frame, so that pushing rarely allocates.
	return path{base: base, segs: make([]segment, 0, 16)}
}

func (p *path) pushKey(key string) { p.segs = append(p.segs, segment{key: key}) }
func (p *path) pushIndex(i int)    { p.segs = append(p.segs, segment{index: i, isIndex: true}) }
func (p *path) pop()               { p.segs = p.segs[:len(p.segs)-1] }

func (p *path) String() string {
	if len(p.segs) == 0 {
		return p.base
	}
	var b strings.Builder
	b.WriteString(p.base)
	for _, s := range p.segs {
		switch {
		case s.isIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case isIdentifier(s.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			// Keys with spaces, dots or brackets would make a dotted path ambiguous.
			b.WriteByte('[')
			b.WriteString(strconv.Quote(s.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// isIdentifier reports whether key can be written after a dot without ambiguity.
func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
