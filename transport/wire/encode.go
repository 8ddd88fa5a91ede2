package wire

import (
	"bytes"
	"encoding/json"
)

// marshalCompact encodes a request or result body on one line without HTML escaping, so page
// text stays readable.
func marshalCompact(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
