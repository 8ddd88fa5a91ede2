package scenarios

import "embed"

// Quickstart holds the quick-start scenario files, as quickstart/*.json.
//
//go:embed quickstart/*.json
var Quickstart embed.FS

// Examples holds the example scenarios (scenarios/examples), for tests that validate them.
//
//go:embed examples/*.json
var Examples embed.FS
