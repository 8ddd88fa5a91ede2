package sessions

import "time"

// ListResult is `session list`'s output.
type ListResult struct {
	// Capabilities name what this fastbrowser's sessions support beyond the seed's base, so
	// an application can tell without reading a version (Capabilities).
	Capabilities []string    `json:"capabilities"`
	Sessions     []ListEntry `json:"sessions"`
}

// Capabilities: "trusted_cas", sessions trust given CAs and present client certificates
// (open's --trusted-ca and --client-cert) and report tls_verified.
var Capabilities = []string{"trusted_cas"}

// ListEntry is one session as list shows it.
type ListEntry struct {
	ID            string     `json:"id"`
	State         string     `json:"state"`
	Reason        string     `json:"reason,omitempty"`
	URL           string     `json:"url,omitempty"`
	Title         string     `json:"title,omitempty"`
	IdleDeadline  time.Time  `json:"idleDeadline,omitzero"`
	EndedAt       time.Time  `json:"endedAt,omitzero"`
	HistoryLength int        `json:"historyLength"`
	Profile       string     `json:"profile,omitempty"`
	Model         *ModelName `json:"model,omitempty"`
	Created       time.Time  `json:"created"`
}

// ListOf is the list output of records (an open session's idle deadline only).
func ListOf(recs []Record) ListResult {
	out := ListResult{Capabilities: Capabilities, Sessions: []ListEntry{}}
	for _, r := range recs {
		e := ListEntry{ID: r.ID, State: r.State, Reason: r.Reason, URL: r.URL, Title: r.Title, EndedAt: r.EndedAt,
			HistoryLength: r.HistoryLength, Profile: r.Options.Profile, Model: r.Options.modelName(), Created: r.Created}
		if r.State == StateOpen {
			e.IdleDeadline = r.IdleDeadline
		}
		out.Sessions = append(out.Sessions, e)
	}
	return out
}
