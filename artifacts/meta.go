package artifacts

// Meta describes one committed artifact. It is what reports and results carry: never the
// bytes. Path is relative to the store's root, always "<sessionId>/<runId>/<artifactId>.<ext>".
type Meta struct {
	ID             string `json:"id"`
	Owner          string `json:"owner"` // who asked for it: a scenario id, a session id
	Kind           string `json:"kind"`  // screenshot | console | network | outline
	Path           string `json:"path"`
	Bytes          int64  `json:"bytes"`
	ContentType    string `json:"contentType"` // image/png | application/json
	SHA256         string `json:"sha256"`      // hex of the committed bytes
	Truncated      bool   `json:"truncated,omitempty"`
	LocalOnly      bool   `json:"localOnly"`      // always true: evidence never leaves this machine
	ModelForwarded bool   `json:"modelForwarded"` // always false: never sent to a model
}
