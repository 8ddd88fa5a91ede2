package strictjson

import "strings"

// DecodeOneOf decodes raw, a JSON string, into dst when it is one of allowed, and refuses
// anything else at path, "" included: a field that may be left out to get its default must
// not also take "" for that default, or a typo'd empty value passes silently. Types whose
// JSON form is such a closed set call it from their UnmarshalStrictJSON.
func DecodeOneOf(raw []byte, dst *string, path string, allowed ...string) error {
	var s string
	if err := DecodeAt(raw, &s, path); err != nil {
		return err
	}
	for _, a := range allowed {
		if s == a {
			*dst = s
			return nil
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = `"` + a + `"`
	}
	want := strings.Join(quoted, " or ")
	if len(quoted) > 2 {
		want = "one of " + strings.Join(quoted, ", ")
	}
	return &Error{Path: path, Expected: want, Message: "expected " + want}
}
