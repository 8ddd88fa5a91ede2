package scenario

import _ "embed"

// SchemaJSON is the JSON Schema (draft 2020-12) of scenario file v1, for editors and CI
// linters; `fastbrowser schema` prints it and docs/scenario.schema.json is a link to it.
// `go generate ./...` makes it (internal/gen) from schema.skeleton.json, which is
// hand-written, and the Go types: its op list (FileOps), each operation's request shape and
// the types they reach, step and when, with the bounds and enums Validate checks
// (internal/gen/rules.go); a test fails while it is stale. It is never stricter than Parse, which stays the authority: Parse also refuses
// what a schema cannot express (duplicate keys, nesting past 512 levels, duplicate operation
// ids, forward or mismatched references, URLs and origins that do not parse or normalise,
// files over 1 MiB).
//
//go:embed schema.json
var SchemaJSON []byte
