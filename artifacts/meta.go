package artifacts

import "github.com/fastbrowser/fastbrowser/transport"

// Meta describes one committed artifact (transport.ArtifactMeta: results and reports carry
// it). Path is relative to the store's root, always "<sessionId>/<runId>/<artifactId>.<ext>".
type Meta = transport.ArtifactMeta
