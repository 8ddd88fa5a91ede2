package transport

import "testing"

// The Go zero value still means the default: only the JSON spelling "" is refused.
func TestAssertZeroWaitIsValidInGo(t *testing.T) {
	if err := Validate(&Assert{Kind: AssertURL, Value: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := Validate(&Assert{Kind: AssertURL, Value: "x", Wait: "forever"}); err == nil {
		t.Fatal("wait \"forever\" passed validation")
	}
}
