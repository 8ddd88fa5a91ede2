// Package scenarios holds example and conformance scenario files and (sub-package fixture)
// the embedded fixture site they run against. It embeds the quick-start files so tests can
// validate them without reading the working tree.
package scenarios
