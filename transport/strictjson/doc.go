// Package strictjson owns strict decoding of JSON protocol frames and scenario files.
//
// encoding/json is lenient in ways that turn a client's mistake into silent misbehaviour:
// it matches object keys case-insensitively, lets the later of two duplicate keys win,
// replaces invalid UTF-8 with U+FFFD and ignores unknown fields. Decode refuses all of
// these, and reports every refusal as an *Error naming the JSON path of the offending
// value, so a caller can say "operations[1].request.url: expected string, got number"
// instead of acting on a guess.
//
// Decoding runs in three passes:
//   - scan checks syntax, UTF-8, duplicate keys and nesting depth, and builds a small tree;
//   - check walks the tree against the Go type and never writes to the destination, so a
//     refused input leaves the destination untouched (except when a type's own
//     UnmarshalStrictJSON, UnmarshalJSON or UnmarshalText refuses it half way);
//   - fill writes the destination, producing exactly what encoding/json would produce
//     for the same input.
//
// Struct fields are named by their `json` tags as encoding/json reads them (including
// the promotion and hiding rules for embedded structs), but matched only exactly. A
// `required:"true"` tag makes a field's key mandatory and its value non-null.
package strictjson
