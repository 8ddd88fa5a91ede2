// Package names holds the project's two name shapes, each defined once: ids and environment
// variable names. It is a leaf: it imports nothing of ours, so every layer (the store, the
// protocol, scenario files) checks a name the same way.
package names

import (
	"regexp"
	"sync"
)

// The two shapes: ids (scenario and operation ids,
// run ids, the operation names evidence is filed under) and environment variable names
// ({"env":NAME} references, a command's env keys).

// idPattern is what an id may look like. Ids end up in artifact paths, so nothing that could
// climb or hide a path passes. Both patterns compile on first use: a counted repetition
// compiles to tens of KB, which every process (each worker) would pay at start.
var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`) })

// ValidID reports whether s is a usable id: idPattern, and not "." or "..".
func ValidID(s string) bool { return idPattern().MatchString(s) && s != "." && s != ".." }

// IDShaped reports whether s matches idPattern alone, "." and ".." included: a scenario
// operation id, which names an operation in its file and never becomes a path.
func IDShaped(s string) bool { return idPattern().MatchString(s) }

// envNamePattern is what an environment variable name may look like.
// EnvNamePattern is its regular expression (the schemas carry it).
const EnvNamePattern = `^[A-Za-z_][A-Za-z0-9_]{0,127}$`

var envNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(EnvNamePattern) })

// ValidEnvName reports whether s is a usable environment variable name.
func ValidEnvName(s string) bool { return envNamePattern().MatchString(s) }
