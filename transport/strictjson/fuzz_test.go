package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

type fuzzFrame struct {
	ID    string            `json:"id" required:"true"`
	Op    string            `json:"op"`
	N     int               `json:"n"`
	U     uint8             `json:"u"`
	F     float64           `json:"f"`
	B     bool              `json:"b"`
	Items []fuzzItem        `json:"items"`
	Env   map[string]string `json:"env"`
	Raw   json.RawMessage   `json:"raw"`
	Next  *fuzzItem         `json:"next"`
	Pair  [2]int32          `json:"pair"`
	fuzzMeta
}

type fuzzItem struct {
	Name     string     `json:"name"`
	Tags     []string   `json:"tags"`
	Count    *int       `json:"count"`
	Children []fuzzItem `json:"children"`
}

type fuzzMeta struct {
	Op      int    `json:"op"` // hidden by fuzzFrame.Op
	Comment string `json:"comment"`
}

// FuzzDecode checks that no input panics, and that whatever Decode accepts is valid
// JSON that encoding/json decodes to exactly the same value.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"id":"1","op":"navigate","items":[{"name":"a","tags":["x"],"count":3}],"env":{"A":"b"},"raw":{"k":[1,2]}}`,
		`{"id":"\ud83d\ude00","next":{"children":[{"name":"c"}]},"pair":[1,-2],"comment":"c"}`,
		`{"id":"1","ID":"2"}`,
		`{"id":"\ud800"}`,
		"{\"id\":\"\xff\"}",
		`{"id":"1","n":1e2}`,
		`{"id":"1"} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got fuzzFrame
		err := Decode(data, &got)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not an *Error", err, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Decode accepted invalid JSON %q", data)
		}
		var want fuzzFrame
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("Decode accepted %q, which encoding/json refuses: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q)\n got %#v\nwant %#v", data, got, want)
		}
		var raw json.RawMessage
		if err := Decode(data, &raw); err != nil {
			t.Fatalf("Decode into fuzzFrame accepted %q but into RawMessage: %v", data, err)
		}
	})
}
