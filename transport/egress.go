package transport

// Blocked is one request the origin policy refused inside the browser: what kind of request
// (document, image, script, xhr, fetch, …) and its origin. Never path, query or fragment.
type Blocked struct {
	Kind   string `json:"kind"`
	Origin string `json:"origin"`
}

// Egress is embedded in every result: what the page did besides the operation's own effect,
// while it ran and since the previous operation — the requests the policy refused, and the
// JavaScript dialogs the worker answered.
type Egress struct {
	Blocked []Blocked `json:"blocked,omitempty"`
	Dialogs []Dialog  `json:"dialogs,omitempty"`
}

func (e *Egress) egress() *Egress { return e }

// BlockedOf returns the requests a result reports as blocked.
func BlockedOf(r Result) []Blocked {
	if r == nil {
		return nil
	}
	return r.egress().Blocked
}

// SetBlocked records the requests an operation's policy refused on its result.
func SetBlocked(r Result, b []Blocked) { r.egress().Blocked = b }

// Subresource policies for a denied subresource.
const (
	SubresourcesFail   = "fail"   // a denied subresource ends the operation with egress_denied
	SubresourcesReport = "report" // it is only reported on the result
)
