package scenario

import _ "embed"

// SchemaJSON is the JSON Schema (draft 2020-12) of scenario file v1, for editors and CI
// linters; `fastbrowser schema` prints it and docs/scenario.schema.json is a link to it. Its
// op list is the operation table's (transport/operations.go) InFiles rows plus step, which a
// test checks. It is never stricter than Parse, which stays the authority: Parse also refuses
// what a schema cannot express (duplicate keys, nesting past 512 levels, duplicate operation
// ids, forward or mismatched references, URLs and origins that do not parse or normalise,
// files over 1 MiB).
//
//go:embed schema.json
var SchemaJSON []byte
