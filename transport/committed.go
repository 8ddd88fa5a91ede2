package transport

// Committed is the artifact a result carries for the runtime to commit (a screenshot's, a
// download's): from the worker, Payload (the bytes); from the runtime, Artifact (their
// metadata) in its place. A result never leaves the runtime with a Payload.
type Committed struct {
	Payload  *ArtifactPayload `json:"payload,omitempty"`
	Artifact *ArtifactMeta    `json:"artifact,omitempty"`
}
