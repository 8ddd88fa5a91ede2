package strictjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestDepthLimit: CheckDepth and Decode refuse 1, 10^4, 10^6 and 8·10^6 levels the same
// way past the limit, without recursing that deep (8·10^6 levels would overflow Go's
// stack), and accept exactly the limit.
func TestDepthLimit(t *testing.T) {
	for _, n := range []int{1, maxDepth, maxDepth + 1, 10_000, 1_000_000, 8_000_000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			for _, doc := range []string{nest("[", "]", n), strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)} {
				deep := n > maxDepth
				err := CheckDepth([]byte(doc))
				if (err != nil) != deep {
					t.Fatalf("CheckDepth(%d levels) = %v", n, err)
				}
				if deep && !strings.Contains(err.Error(), "more than 512 levels") {
					t.Fatalf("CheckDepth does not name the limit: %v", err)
				}
				var raw json.RawMessage
				err = Decode([]byte(doc), &raw)
				if (err != nil) != deep {
					t.Fatalf("Decode(%d levels) = %v", n, err)
				}
				if deep && !strings.Contains(err.Error(), "more than 512 levels") {
					t.Fatalf("Decode does not name the limit: %v", err)
				}
			}
		})
	}
}

// TestCheckDepthSkipsStrings: brackets inside strings, escaped quotes included, are text.
func TestCheckDepthSkipsStrings(t *testing.T) {
	open := strings.Repeat("[", 2*maxDepth)
	for _, doc := range []string{
		`"` + open + `"`,
		`["\"` + open + `"]`,
		`{"k\\":"` + open + `\\\"` + open + `"}`,
	} {
		if err := CheckDepth([]byte(doc)); err != nil {
			t.Errorf("%.40s…: %v", doc, err)
		}
	}
	// The string ends at an unescaped quote: what follows counts again.
	if CheckDepth([]byte(`["\\"`+open)) == nil {
		t.Error("an escaped backslash kept the string open")
	}
}

// FuzzCheckDepth: CheckDepth never refuses what Decode accepts, and whatever it refuses
// Decode refuses too, so the pre-check can never change an answer, only spare a parser.
func FuzzCheckDepth(f *testing.F) {
	for _, seed := range []string{`[]`, `{"a":[1,{"b":"[["}]}`, `"\\"`, `["\"[",[[]]]`, nest("[", "]", maxDepth+1), `[[`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw json.RawMessage
		decodeErr := Decode(data, &raw)
		depthErr := CheckDepth(data)
		if decodeErr == nil && depthErr != nil {
			t.Fatalf("CheckDepth refused what Decode accepts: %v", depthErr)
		}
	})
}
