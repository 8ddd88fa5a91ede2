package strictjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// string consumes a string and, if decode is set, returns its contents, decoded exactly
// as encoding/json decodes them. Unlike encoding/json it refuses invalid UTF-8 and
// unpaired surrogate escapes rather than replacing them with U+FFFD. what ("" or
// "object key ") words the UTF-8 errors.
func (s *scanner) string(what string, decode bool) (string, error) {
	s.off++        // opening quote
	run := s.off   // start of the bytes not yet copied to buf
	var buf []byte // nil until the first escape; until then the result is a plain copy
	escaped := false
	for {
		if s.off >= len(s.data) {
			return "", s.unexpected("'\"'")
		}
		c := s.data[s.off]
		switch {
		case c == '"':
			var str string
			switch {
			case !decode:
			case escaped:
				str = string(append(buf, s.data[run:s.off]...))
			default:
				str = string(s.data[run:s.off])
			}
			s.off++
			return str, nil
		case c == '\\':
			if decode {
				buf = append(buf, s.data[run:s.off]...)
			}
			escaped = true
			var err error
			if buf, err = s.escape(buf, what); err != nil {
				return "", err
			}
			run = s.off
		case c < 0x20:
			return "", s.unexpected("a character other than a control character in a string")
		case c < utf8.RuneSelf:
			s.off++
		default:
			r, size := utf8.DecodeRune(s.data[s.off:])
			if r == utf8.RuneError && size == 1 {
				return "", s.utf8Error("invalid UTF-8 in %sstring at offset %d", what, s.off)
			}
			s.off += size
		}
	}
}

// escape decodes the escape sequence at s.off (a backslash) and appends it to buf.
func (s *scanner) escape(buf []byte, what string) ([]byte, error) {
	if s.off+1 >= len(s.data) {
		s.off++
		return nil, s.unexpected("an escape character")
	}
	c := s.data[s.off+1]
	switch c {
	case '"', '\\', '/':
		buf = append(buf, c)
	case 'b':
		buf = append(buf, '\b')
	case 'f':
		buf = append(buf, '\f')
	case 'n':
		buf = append(buf, '\n')
	case 'r':
		buf = append(buf, '\r')
	case 't':
		buf = append(buf, '\t')
	case 'u':
		return s.unicodeEscape(buf, what)
	default:
		s.off++
		return nil, s.unexpected("an escape character")
	}
	s.off += 2
	return buf, nil
}

// unicodeEscape decodes \uXXXX at s.off, with its low surrogate if it is a high one.
func (s *scanner) unicodeEscape(buf []byte, what string) ([]byte, error) {
	at := s.off
	r, err := s.hex4()
	if err != nil {
		return nil, err
	}
	if utf16.IsSurrogate(r) {
		lone := true
		if r < 0xDC00 && s.off+1 < len(s.data) && s.data[s.off] == '\\' && s.data[s.off+1] == 'u' {
			save := s.off
			low, err := s.hex4()
			if err != nil {
				return nil, err
			}
			if 0xDC00 <= low && low <= 0xDFFF {
				r, lone = utf16.DecodeRune(r, low), false
			} else {
				s.off = save
			}
		}
		if lone {
			return nil, s.utf8Error("invalid UTF-8 in %sstring: unpaired surrogate escape %s at offset %d",
				what, s.data[at:at+6], at)
		}
	}
	return utf8.AppendRune(buf, r), nil
}

// hex4 consumes \uXXXX at s.off and returns XXXX.
func (s *scanner) hex4() (rune, error) {
	s.off += 2 // \u
	var r rune
	for i := 0; i < 4; i++ {
		if s.off >= len(s.data) {
			return 0, s.unexpected("a hexadecimal digit")
		}
		c := s.data[s.off]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, s.unexpected("a hexadecimal digit")
		}
		r = r<<4 | rune(c)
		s.off++
	}
	return r, nil
}
