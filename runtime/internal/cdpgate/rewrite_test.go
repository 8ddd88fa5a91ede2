package cdpgate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The fast path reads exactly what the general one reads, on Chromium's layouts and others.
func TestHeadsAgree(t *testing.T) {
	for _, msg := range []string{
		`{"id":3,"result":{"product":"Chrome"},"sessionId":"CFEB3B964BF2A24F98BAF77ADD53AED0"}`,
		`{"id":12,"result":{}}`,
		`{"id":15,"error":{"code":-32001,"message":"Session with given id not found."}}`,
		`{"method":"Target.attachedToTarget","params":{"sessionId":"AB","targetInfo":{}},"sessionId":"CD"}`,
		`{"method":"Target.detachedFromTarget","params":{"sessionId":"AB"}}`,
		`{"id":7,"result":{"sessionId":"1E98"},"sessionId":"CFEB"}`,
		`{"id":7,"result":{"x":{"sessionId":"inner"}}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"args":[{"value":"\",\"sessionId\":\"X\"}"}]},"sessionId":"S1"}`,
		`{"method":"Page.x","params":{"a":"b"},"sessionId":"S1","extra":"y"}`,
	} {
		got, want := browserHead([]byte(msg)), anyHead([]byte(msg))
		if got != want {
			t.Errorf("%s\n fast %+v\n gjson %+v", msg, got, want)
		}
	}
}

func TestWithoutSession(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id":3,"result":{},"sessionId":"S"}`, `{"id":3,"result":{}}`},
		{`{"sessionId":"S","id":3,"result":{}}`, `{"id":3,"result":{}}`},
		{`{ "id":3 , "sessionId" : "S" , "result":{} }`, `{ "id":3  , "result":{} }`}, // white space kept
		{`{"sessionId":"S"}`, `{}`},
		{`{"id":1,"result":{"sessionId":"inner"}}`, `{"id":1,"result":{"sessionId":"inner"}}`},
	} {
		if got := string(withoutSession([]byte(c.in), browserHead([]byte(c.in)))); got != c.want {
			t.Errorf("withoutSession(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestWithSessionAndID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id":1,"method":"Browser.getVersion"}`, `{"sessionId":"B","id":99,"method":"Browser.getVersion"}`},
		{` { "method":"X", "id" : 12 }`, ` {"sessionId":"B", "method":"X", "id" : 99 }`},
	} {
		h, ok := clientHead([]byte(c.in))
		if !ok {
			t.Fatalf("clientHead(%s) refused", c.in)
		}
		got := string(withSession(withID([]byte(c.in), h, []byte("99")), "B"))
		if got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// A message naming a routing key twice is refused: the browser might act on the other one.
func TestClientHeadRefusesDuplicates(t *testing.T) {
	for _, msg := range []string{
		`{"id":1,"method":"X","sessionId":"MINE","sessionId":"OTHER"}`,
		`{"id":1,"method":"X","sessionId":"MINE","session\u0049d":"OTHER"}`,
		`{"id":1,"id":2,"method":"X"}`,
		`{"id":1,"method":"X","sessionId":null}`,
		`[1,2]`,
	} {
		if _, ok := clientHead([]byte(msg)); ok {
			t.Errorf("clientHead accepted %s", msg)
		}
	}
}

// rewrite keeps everything but what it was asked to change, in any layout.
func FuzzRewrite(f *testing.F) {
	f.Add(`{"id":3,"result":{"a":[1,"x"]},"sessionId":"S"}`, "42", true)
	f.Add(`{"sessionId":"S","id":3}`, "7", true)
	f.Add(`{"method":"E","params":{},"sessionId":"S"}`, "", true)
	f.Add(`{"id":1,"result":"\u0000,\"sessionId\":\"S\"}"}`, "5", false)
	f.Fuzz(func(t *testing.T, msg, id string, drop bool) {
		var before map[string]any
		if json.Unmarshal([]byte(msg), &before) != nil || strings.ContainsRune(msg, 0) {
			return
		}
		h := browserHead([]byte(msg))
		if !h.hasID {
			id = ""
		}
		if id != "" {
			if strings.Trim(id, "0123456789") != "" || len(id) > 18 || id[0] == '0' {
				return
			}
		}
		var newID []byte
		if id != "" {
			newID = []byte(id)
		}
		out := rewrite([]byte(msg), h, newID, drop)
		var after map[string]any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("rewrite(%s) = %s: not JSON: %v", msg, out, err)
		}
		if drop && h.session != "" {
			delete(before, "sessionId")
		}
		if id != "" {
			var n any
			_ = json.Unmarshal(newID, &n)
			before["id"] = n
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("rewrite(%s, %q, %t) = %s", msg, id, drop, out)
		}
	})
}
