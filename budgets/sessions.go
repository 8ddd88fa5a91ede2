package budgets

import "time"

// Interactive sessions (scenario/sessions, docs/sessions.md).

// sessionIdle is how long a session's browser stays open with no command (--idle-timeout).
var sessionIdle = Budget{Name: "sessionIdle", Default: 30 * time.Minute, Floor: time.Second, Ceiling: 24 * time.Hour}

// SessionIdle bounds an interactive session's life between two commands.
func SessionIdle() Budget { return sessionIdle }

const (
	// SessionOpenWait bounds `session open`'s wait for its host to be ready: a browser
	// launch, the worker's readiness, the first navigation and outline, and a margin.
	SessionOpenWait = 10*time.Second + 5*time.Second + 10*time.Second + 10*time.Second + 5*time.Second
	// SessionConnect bounds reaching a host's socket and reading its ready frame.
	SessionConnect = 2 * time.Second
	// SessionRequestRead bounds a host's wait for the request of a connection it accepted.
	SessionRequestRead = 2 * time.Second
	// SessionCall bounds a command's wait for its host's answer: the longest operation (the
	// request ceiling), its condition, the page outline after it, and a margin.
	SessionCall = 120*time.Second + 3*time.Second + 10*time.Second + 5*time.Second
	// SessionSettle bounds the looks after an operation that may change the page, until two
	// agree (a navigation a click started has landed); SessionSettlePoll is the gap between.
	SessionSettle     = 2 * time.Second
	SessionSettlePoll = 100 * time.Millisecond
	// SessionAcceptRetry is how long a session host waits before accepting again after a
	// failed accept (out of file descriptors).
	SessionAcceptRetry = 50 * time.Millisecond
	// SessionRefs bounds how many outline refs a session host remembers for export.
	SessionRefs = 50000
	// SessionStdin bounds the one operation `session do` reads from stdin.
	SessionStdin = ScenarioFileSize
	// SessionCallHistories bounds how many sessions' call histories `fastbrowser mcp` keeps
	// for browser_export (scenario/sessions Calls): past it, the oldest ended one goes (the
	// oldest of all when none has ended).
	SessionCallHistories = 64
)
