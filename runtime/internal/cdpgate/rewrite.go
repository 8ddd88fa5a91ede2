package cdpgate

import (
	"bytes"
	"strconv"

	"github.com/tidwall/gjson"
)

// A message is edited in place of being decoded and encoded again: a screenshot's answer is
// megabytes of base64 of which only the id and the sessionId change. Chromium writes compact
// JSON with "id" or "method" first and "sessionId" last (it appends the session to the
// encoded message), and the fast paths below read exactly that; anything else (a client's
// message, another order, white space) goes through gjson.

// head is what routing needs of a message: its top-level id, method and sessionId, with
// where the id's and the sessionId's values are in the message.
type head struct {
	hasID   bool
	id      span // the id's raw value
	method  string
	session string
	sess    span // the sessionId member's value, quotes included (n == 0: none)
}

type span struct{ off, n int }

func (s span) of(msg []byte) []byte { return msg[s.off : s.off+s.n] }

// browserHead reads a message from the browser.
func browserHead(msg []byte) head {
	if h, ok := fastHead(msg); ok {
		return h
	}
	return anyHead(msg)
}

// anyHead reads a message whatever its layout.
func anyHead(msg []byte) head {
	h, _ := clientHead(msg)
	return h
}

// clientHead reads a client's message, whose layout is the client's: "sessionId" may be
// anywhere. ok is false when the message is not an object, or names id, method or sessionId
// twice (spelled alike or with escapes) or gives a sessionId that is not a string: a
// browser that took another of the duplicates than this reading did would act on a session
// the gate never checked.
func clientHead(msg []byte) (h head, ok bool) {
	top := gjson.ParseBytes(msg)
	if !top.IsObject() {
		return h, false
	}
	ok = true
	seen := map[string]bool{}
	top.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id", "method", "sessionId":
		default:
			return true
		}
		if seen[k.Str] {
			ok = false
			return false
		}
		seen[k.Str] = true
		switch k.Str {
		case "id":
			h.hasID, h.id = true, span{v.Index, len(v.Raw)}
		case "method":
			h.method = v.Str
		case "sessionId":
			if v.Type != gjson.String {
				ok = false
				return false
			}
			h.session, h.sess = v.Str, span{v.Index, len(v.Raw)}
		}
		return true
	})
	return h, ok
}

const (
	idPrefix      = `{"id":`
	methodPrefix  = `{"method":"`
	sessionMember = `,"sessionId":"`
)

// fastHead reads Chromium's own layout: {"id":N,… or {"method":"M",…, and a last member
// ,"sessionId":"S"} whose S is a plain session id. In valid JSON those bytes cannot be inside
// a string (its quotes would be escaped), so what they say is what the message says.
func fastHead(msg []byte) (head, bool) {
	var h head
	switch {
	case bytes.HasPrefix(msg, []byte(idPrefix)):
		i := len(idPrefix)
		j := i
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if j == i || j >= len(msg) || (msg[j] != ',' && msg[j] != '}') {
			return h, false
		}
		h.hasID, h.id = true, span{i, j - i}
	case bytes.HasPrefix(msg, []byte(methodPrefix)):
		i := len(methodPrefix)
		j := bytes.IndexByte(msg[i:], '"')
		if j < 0 || bytes.IndexByte(msg[i:i+j], '\\') >= 0 {
			return h, false
		}
		h.method = string(msg[i : i+j])
	default:
		return h, false
	}
	if !bytes.HasSuffix(msg, []byte(`"}`)) {
		return h, true // no sessionId member last: none at all, in Chromium's layout
	}
	end := len(msg) - 2 // the closing quote of a last string member
	tail := msg[max(0, end-96):end]
	k := bytes.LastIndex(tail, []byte(sessionMember))
	if k < 0 {
		return h, !bytes.Contains(msg, []byte(`"sessionId"`)) // elsewhere: ask gjson
	}
	start := max(0, end-96) + k + len(sessionMember)
	sid := msg[start:end]
	for _, c := range sid {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '.' || c == '_') {
			return h, false
		}
	}
	h.session, h.sess = string(sid), span{start - 1, len(sid) + 2}
	return h, true
}

// splice returns a new message: msg with n bytes at off replaced by with.
func splice(msg []byte, off, n int, with []byte) []byte {
	out := make([]byte, 0, len(msg)-n+len(with))
	out = append(out, msg[:off]...)
	out = append(out, with...)
	return append(out, msg[off+n:]...)
}

// withID is msg with its top-level id replaced by id.
func withID(msg []byte, h head, id []byte) []byte {
	return splice(msg, h.id.off, h.id.n, id)
}

// withSession is msg (an object with no sessionId) with "sessionId":sid as its first
// member.
func withSession(msg []byte, sid string) []byte {
	i := bytes.IndexByte(msg, '{')
	if i < 0 {
		return msg
	}
	member := `"sessionId":` + strconv.Quote(sid)
	if rest := bytes.TrimSpace(msg[i+1:]); len(rest) > 0 && rest[0] != '}' {
		member += ","
	}
	return splice(msg, i+1, 0, []byte(member))
}

// withoutSession is msg without its top-level "sessionId" member (at h.sess) and the comma
// that joined it to a neighbour; msg itself if the member is not where h says.
func withoutSession(msg []byte, h head) []byte {
	if h.sess.n == 0 {
		return msg
	}
	v := h.sess.off
	k := skipSpaceBack(msg, v) // back over `"sessionId" :`
	if k == 0 || msg[k-1] != ':' {
		return msg
	}
	k = skipSpaceBack(msg, k-1)
	const key = `"sessionId"`
	if k < len(key) || string(msg[k-len(key):k]) != key {
		return msg
	}
	start, end := k-len(key), v+h.sess.n
	if p := skipSpaceBack(msg, start); p > 0 && msg[p-1] == ',' {
		return splice(msg, p-1, end-(p-1), nil)
	}
	if n := skipSpace(msg, end); n < len(msg) && msg[n] == ',' {
		return splice(msg, start, n+1-start, nil)
	}
	return splice(msg, start, end-start, nil)
}

func skipSpaceBack(b []byte, i int) int {
	for i > 0 && isSpace(b[i-1]) {
		i--
	}
	return i
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// rewrite is a new message: msg with its id replaced by id (nil: kept) and its sessionId
// member dropped when drop is set. It copies msg even when nothing changes: the reader
// reuses its buffer.
func rewrite(msg []byte, h head, id []byte, drop bool) []byte {
	out := msg
	if drop {
		out = withoutSession(msg, h)
	}
	if id != nil {
		if len(out) != len(msg) && h.id.off > h.sess.off {
			h = anyHead(out) // the id came after the member dropped: find it again
		}
		return withID(out, h, id)
	}
	if len(out) == len(msg) {
		return append([]byte(nil), msg...)
	}
	return out
}
