package scenarios

import "embed"

// Quickstart holds the quick-start scenario files, as quickstart/*.json.
//
//go:embed quickstart/*.json
var Quickstart embed.FS
