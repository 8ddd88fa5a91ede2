package strictjson

import (
	"strconv"
	"strings"
	"sync"
)

// path tracks where a walk is in the input. Segments are kept unrendered because a
// path is only turned into a string when something is refused (or handed to an
// Unmarshaler), and rendering on every step would dominate the cost of a decode.
type path struct {
	base   string
	segs   []segment
	pooled bool // segs came from paths (pooledPath)
}

type segment struct {
	key     string
	index   int
	isIndex bool
}

// pathRoom is room for the nesting of any ordinary frame, so that pushing rarely allocates.
const pathRoom = 16

// paths holds segment slices between decodes: every protocol frame is decoded at least
// twice (the frame, then its request or result), and a fresh path each time was most of
// what a small frame's decode allocated.
var paths = sync.Pool{New: func() any { s := make([]segment, 0, pathRoom); return &s }}

// pooledPath is newPath with its segments from the pool; release gives them back.
func pooledPath(base string) path {
	return path{base: base, segs: (*paths.Get().(*[]segment))[:0], pooled: true}
}

// release returns an empty path's segments to the pool. Nothing keeps a path's segments
// past its decode: errors and Unmarshalers get the path as a string.
func (p *path) release() {
	if !p.pooled || len(p.segs) != 0 || cap(p.segs) > 4*pathRoom {
		return
	}
	segs := p.segs[:0]
	clear(segs[:cap(segs)]) // drop the keys popped segments still point to
	p.segs, p.pooled = nil, false
	paths.Put(&segs)
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

// JoinKey appends an object key to a path written in this package's style: ".key" after
// a non-empty path, "key" at the root, `["a key"]` for a key a dot would make ambiguous.
func JoinKey(path, key string) string {
	switch {
	case !isIdentifier(key):
		return path + "[" + strconv.Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
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
