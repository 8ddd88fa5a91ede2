package transport

// OpAttachEndpoint asks a session for the endpoint a person attaches through (seed 001: a
// person attaching through the session's attach endpoint stops the host's task). The
// runtime answers it (OpSpec.Runtime); it is allowed while a hosted task owns the session,
// since handing the endpoint to a person mid-task is what it is for.
const OpAttachEndpoint = "attachEndpoint"

// AttachEndpoint asks for the session's attach endpoint. Only a session whose browser is its
// own (launched for it, not attached at --cdp-url nor shared with other sessions) has one.
type AttachEndpoint struct {
	op[AttachEndpoint, AttachEndpointResult]
}

// AttachEndpointResult is the endpoint: a DevTools websocket URL that answers only this
// user's connections and only with the token in its path. The URL is a credential: a
// parent hands it to the person who is to watch or act, and keeps it out of logs. Whoever
// connects to it from then on stops a running hosted task (stoppedBy "person"); the
// session stays its host's.
type AttachEndpointResult struct {
	Egress
	URL string `json:"url"`
}

func (AttachEndpoint) Validate() error { return nil }
