package transport

import (
	"encoding/json"
	"strings"
	"testing"
)

// A Go caller may give an assert's expected value as Value; its wire form carries it once
// ForWire normalised it (wire.Conn.Call does so for every request), regex or not.
func TestAssertForWireCarriesGoValue(t *testing.T) {
	raw, err := json.Marshal(Assert{Kind: AssertTitle, Value: "Dashboard"}.ForWire())
	if err != nil || !strings.Contains(string(raw), `"value":"Dashboard"`) {
		t.Fatalf("wire form %s (%v) lacks the value", raw, err)
	}
	raw, _ = json.Marshal(Assert{Kind: AssertText, ValueMatch: Like("^a$", "i")}.ForWire())
	if !strings.Contains(string(raw), `"regex":"^a$"`) {
		t.Fatalf("wire form %s lacks the regex", raw)
	}
}
