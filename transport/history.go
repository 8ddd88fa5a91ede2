package transport

// --- goBack, goForward ---

// Op names of the history operations.
const (
	OpGoBack    = "goBack"
	OpGoForward = "goForward"
)

// GoBack goes one entry back in a tab's session history (the selected tab when Tab is
// empty), as the browser's Back button does, under the same origin policy as navigate.
type GoBack struct {
	op[GoBack, NavigateResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
}

// GoForward goes one entry forward in a tab's session history.
type GoForward struct {
	op[GoForward, NavigateResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
}

func (r GoBack) Validate() error    { return checkTab(OpGoBack, "request.tab", r.Tab, false) }
func (r GoForward) Validate() error { return checkTab(OpGoForward, "request.tab", r.Tab, false) }
