package strictjson

import (
	"fmt"
	"unicode/utf8"
)

// scanner is the first pass: it refuses anything that is not one well-formed JSON value
// in valid UTF-8 with unique keys and bounded nesting, and builds the tree the later
// passes walk. Doing all of this before any Unmarshaler runs is what lets Unmarshaler
// promise its raw bytes have passed these checks.
type scanner struct {
	data  []byte
	off   int
	path  path
	tree  tree
	stack []value // children of the containers being scanned, innermost last
}

// scan parses data, which must hold exactly one JSON value and optional whitespace. It
// walks with p and, when it succeeds, hands p back as it got it (empty, perhaps grown) for
// the next pass.
func scan(data []byte, p path) (*tree, value, path, error) {
	base := p.base
	s := scanner{data: data, path: p}
	// Frames spend well over 16 bytes per value, so this guess saves most regrowth of
	// the tree without overcommitting; the cap bounds it for huge inputs.
	s.tree.nodes = make([]value, 0, min(len(data)/16, 4096))
	s.skipSpace()
	v, err := s.value(0)
	if err != nil {
		return nil, value{}, path{}, err
	}
	s.skipSpace()
	if s.off < len(s.data) {
		if s.badUTF8() {
			return nil, value{}, path{}, s.utf8Error("invalid UTF-8 at offset %d", s.off)
		}
		return nil, value{}, path{}, &Error{Path: base, Expected: "end of input",
			Message: fmt.Sprintf("trailing data after the JSON value at offset %d", s.off)}
	}
	return &s.tree, v, s.path, nil
}

func (s *scanner) skipSpace() {
	for s.off < len(s.data) {
		switch s.data[s.off] {
		case ' ', '\t', '\n', '\r':
			s.off++
		default:
			return
		}
	}
}

// value parses the value at s.off; depth counts the arrays and objects around it.
func (s *scanner) value(depth int) (value, error) {
	if s.off >= len(s.data) {
		return value{}, s.unexpected("a JSON value")
	}
	start := s.off
	switch c := s.data[s.off]; {
	case c == '{':
		return s.container(depth+1, kindObject)
	case c == '[':
		return s.container(depth+1, kindArray)
	case c == '"':
		_, err := s.string("", false)
		return value{kind: kindString, raw: s.data[start:s.off]}, err
	case c == '-' || ('0' <= c && c <= '9'):
		err := s.number()
		return value{kind: kindNumber, raw: s.data[start:s.off]}, err
	case c == 't':
		return s.literal(kindBool, "true")
	case c == 'f':
		return s.literal(kindBool, "false")
	case c == 'n':
		return s.literal(kindNull, "null")
	}
	return value{}, s.unexpected("a JSON value")
}

// container parses an array or an object. Its children collect on s.stack while it is
// open and move to the tree as one block when it closes.
func (s *scanner) container(depth int, kind valueKind) (value, error) {
	if depth > maxDepth {
		return value{}, s.tooDeep()
	}
	start, mark := s.off, len(s.stack)
	closer, what := byte(']'), "',' or ']'"
	if kind == kindObject {
		closer, what = '}', "',' or '}'"
	}
	var keys map[string]string // see findRepeat
	s.off++
	s.skipSpace()
	if s.off >= len(s.data) || s.data[s.off] != closer {
		for {
			s.skipSpace()
			var err error
			if kind == kindObject {
				err = s.member(depth, mark, &keys)
			} else {
				err = s.element(depth, len(s.stack)-mark)
			}
			if err != nil {
				return value{}, err
			}
			s.skipSpace()
			if s.off < len(s.data) && s.data[s.off] == ',' {
				s.off++
				continue
			}
			if s.off < len(s.data) && s.data[s.off] == closer {
				break
			}
			return value{}, s.unexpected(what)
		}
	}
	s.off++
	v := value{kind: kind, raw: s.data[start:s.off], first: len(s.tree.nodes), n: len(s.stack) - mark}
	s.tree.nodes = append(s.tree.nodes, s.stack[mark:]...)
	clear(s.stack[mark:]) // drop references into the input
	s.stack = s.stack[:mark]
	return v, nil
}

func (s *scanner) element(depth, index int) error {
	s.path.pushIndex(index)
	v, err := s.value(depth)
	if err != nil {
		return err
	}
	s.path.pop()
	s.stack = append(s.stack, v)
	return nil
}

// member parses `"key": value`; the object's earlier members are s.stack[mark:].
func (s *scanner) member(depth, mark int, keys *map[string]string) error {
	if s.off >= len(s.data) || s.data[s.off] != '"' {
		return s.unexpected("a string key")
	}
	key, err := s.string("object key ", true)
	if err != nil {
		return err
	}
	if earlier, ok := findRepeat(s.stack[mark:], keys, key); ok {
		msg := fmt.Sprintf("duplicate key %q", key)
		if earlier != key {
			msg += fmt.Sprintf(" (the same as %q apart from letter case)", earlier)
		}
		return &Error{Path: s.path.String(), Expected: "unique keys", Message: msg}
	}
	s.skipSpace()
	if s.off >= len(s.data) || s.data[s.off] != ':' {
		return s.unexpected("':'")
	}
	s.off++
	s.skipSpace()
	s.path.pushKey(key)
	v, err := s.value(depth)
	if err != nil {
		return err
	}
	s.path.pop()
	v.key = key
	s.stack = append(s.stack, v)
	return nil
}

// literal consumes word: true, false or null.
func (s *scanner) literal(kind valueKind, word string) (value, error) {
	start := s.off
	for i := 0; i < len(word); i++ {
		if s.off >= len(s.data) || s.data[s.off] != word[i] {
			return value{}, s.unexpected(word)
		}
		s.off++
	}
	return value{kind: kind, raw: s.data[start:s.off]}, nil
}

// number consumes a number in exactly the JSON grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	if s.data[s.off] == '-' {
		s.off++
	}
	switch {
	case s.off < len(s.data) && s.data[s.off] == '0':
		s.off++
	case s.off < len(s.data) && '1' <= s.data[s.off] && s.data[s.off] <= '9':
		s.digits()
	default:
		return s.unexpected("a digit")
	}
	if s.off < len(s.data) && s.data[s.off] == '.' {
		s.off++
		if !s.digits() {
			return s.unexpected("a digit")
		}
	}
	if s.off < len(s.data) && (s.data[s.off] == 'e' || s.data[s.off] == 'E') {
		s.off++
		if s.off < len(s.data) && (s.data[s.off] == '+' || s.data[s.off] == '-') {
			s.off++
		}
		if !s.digits() {
			return s.unexpected("a digit")
		}
	}
	return nil
}

func (s *scanner) digits() bool {
	start := s.off
	for s.off < len(s.data) && '0' <= s.data[s.off] && s.data[s.off] <= '9' {
		s.off++
	}
	return s.off > start
}

// unexpected reports the byte at s.off (or the end of the input) as a syntax error.
func (s *scanner) unexpected(expected string) error {
	e := &Error{Path: s.path.String(), Expected: expected}
	switch {
	case s.off >= len(s.data):
		e.Message = fmt.Sprintf("invalid JSON at offset %d: unexpected end of input, expected %s", s.off, expected)
	case s.badUTF8():
		return s.utf8Error("invalid UTF-8 at offset %d", s.off)
	default:
		r, _ := utf8.DecodeRune(s.data[s.off:])
		e.Message = fmt.Sprintf("invalid JSON at offset %d: unexpected %q, expected %s", s.off, r, expected)
	}
	return e
}

// badUTF8 reports whether the input at s.off is not a valid UTF-8 sequence, so that a
// stray byte outside a string is reported as the encoding error it is.
func (s *scanner) badUTF8() bool {
	r, size := utf8.DecodeRune(s.data[s.off:])
	return r == utf8.RuneError && size == 1
}

func (s *scanner) utf8Error(format string, args ...any) error {
	return &Error{Path: s.path.String(), Expected: "valid UTF-8", Message: fmt.Sprintf(format, args...)}
}

func (s *scanner) tooDeep() error {
	return &Error{Path: s.path.String(), Expected: fmt.Sprintf("at most %d levels of nesting", maxDepth),
		Message: fmt.Sprintf("nested too deeply (more than %d levels of arrays and objects)", maxDepth)}
}
