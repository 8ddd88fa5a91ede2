package sessions

import (
	"encoding/json"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Session states and why a session ended.
const (
	// StateStarting: `session open` created the session and its host is starting; the
	// sweep leaves it to the host (or removes it once no start could still be running).
	StateStarting = "starting"
	StateOpen     = "open"
	StateEnded    = "ended"

	EndIdle     = "idle"      // idle past its deadline
	EndClosed   = "closed"    // session close --keep
	EndCrashed  = "crashed"   // the browser (or worker) died under it
	EndHostDied = "host_died" // the host process was killed; found by the next command
)

// Codes are the session commands' error codes (docs/sessions.md "Errors"). An operation that
// ran and failed keeps its protocol code as the error's cause.
const (
	CodeInvalidInput    = "invalid_input"
	CodeNotFound        = "session_not_found"
	CodeBusy            = "session_busy"
	CodeEnded           = "session_ended"
	CodeModelRequired   = "model_required"
	CodeProfileInUse    = "profile_in_use"
	CodeLaunchFailed    = "launch_failed"
	CodeOperationFailed = "operation_failed"
	CodeExportInvalid   = "export_invalid"
	CodeFailed          = "failed"
)

// Codes lists the codes in documentation order.
var Codes = []string{CodeInvalidInput, CodeNotFound, CodeBusy, CodeEnded, CodeModelRequired, CodeProfileInUse,
	CodeLaunchFailed, CodeOperationFailed, CodeExportInvalid, CodeFailed}

// Options are what `session open` was asked for, as session.json keeps them: never a
// secret (a proxy URL's credentials are removed before it is stored).
type Options struct {
	URL            string   `json:"url,omitempty"`
	AllowedOrigins []string `json:"allowedOrigins"`
	IdleTimeoutMs  int64    `json:"idleTimeoutMs"`
	Headed         bool     `json:"headed,omitempty"`
	Viewport       string   `json:"viewport,omitempty"` // WxH
	Browser        string   `json:"browser,omitempty"`
	CDPURL         string   `json:"cdpUrl,omitempty"`  // --cdp-url: the browser attached to
	Profile        string   `json:"profile,omitempty"` // absolute; held by this session alone
	Proxy          string   `json:"proxy,omitempty"`   // without credentials
	Artifacts      string   `json:"artifacts,omitempty"`
	// TrustedCAs and ClientCertificates are --trusted-ca and --client-cert: absolute paths
	// of PEM files, never their contents. The host reads them when it starts and keeps the
	// keys in its memory alone.
	TrustedCAs         []string                 `json:"trustedCAs,omitempty"`
	ClientCertificates []ClientCertificateFiles `json:"clientCertificates,omitempty"`
	// Model is --model and its flags: the provider, model, base URL and the name of the
	// variable that holds the API key, never the key (each do sends it; see DoEnv).
	Model *model.Config `json:"model,omitempty"`
	// Dir is the working directory of `session open`: the host runs there.
	Dir string `json:"dir"`
}

// ClientCertificateFiles is one --client-cert: the exact https origin it is presented to,
// and the paths of its PEM certificate and PEM private key.
type ClientCertificateFiles struct {
	Origin string `json:"origin"`
	Cert   string `json:"cert"`
	Key    string `json:"key"`
}

// Record is session.json: the session as `list` shows it.
type Record struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	State   string    `json:"state"`            // StateOpen or StateEnded
	Reason  string    `json:"reason,omitempty"` // with StateEnded: EndIdle, EndClosed, EndCrashed, EndHostDied
	EndedAt time.Time `json:"endedAt,omitzero"` // with StateEnded
	// IdleDeadline is when an open session's host closes its browser unless a command
	// renews it.
	IdleDeadline time.Time `json:"idleDeadline"`
	Options      Options   `json:"options"`
	// LandedURL is where the first URL led (after its redirects): where the first
	// operation started, and where a replay's leading navigate lands.
	LandedURL string `json:"landedUrl,omitempty"`
	// URL and Title are the selected page's after the last command.
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
	// HistoryLength is how many operations `do` has recorded.
	HistoryLength int `json:"historyLength"`
	// HostPid is the session host's process id (for people; liveness is the host lock).
	HostPid int `json:"hostPid,omitempty"`
	// CDPURL is where a person can watch and act in the same browser.
	CDPURL string `json:"cdpUrl,omitempty"`
	// TempProfile is the launched browser's temporary profile: removed when the session
	// ends, also by the sweep after its host died.
	TempProfile string `json:"tempProfile,omitempty"`
	// EnvVariables are the variables a do gave as {"env": NAME}, by name → NAME (never a
	// value): every later do reads them from its environment, and requires them.
	EnvVariables map[string]string `json:"envVariables,omitempty"`
}

// History statuses.
const (
	StatusDone    = "done"
	StatusFailed  = "failed"
	StatusSkipped = "skipped"
)

// Entry is one line of history.jsonl: one `do`. It never holds a secret's value: Operation
// keeps {"env":"NAME"} as given, and Message is masked.
type Entry struct {
	Index int `json:"index"`
	// Operation is what was given on stdin, as given (a shorthand stays a shorthand).
	Operation json.RawMessage `json:"operation"`
	Status    string          `json:"status"`
	// Code and Message say why a failed operation failed (its protocol code).
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Export is the scenario-file operation the entry becomes in an export (done and
	// skipped only): a by-ID shorthand or ref target rewritten to role and accessible name.
	Export json.RawMessage `json:"export,omitempty"`
	// NotUnique: the element's role and name matched more than one element of the page
	// when it was recorded, so the exported target may find another.
	NotUnique bool `json:"notUnique,omitempty"`
	// UnresolvedRefs are outline refs the export keeps as refs: no outline the session
	// showed had them, or their element has no accessible name, so no role and name could
	// replace them (export warns).
	UnresolvedRefs []string `json:"unresolvedRefs,omitempty"`
	// Turns are a task's or extract's turn receipts (an act in words is a task), failed or
	// not: content-free (no page text, prompt or model output).
	Turns []transport.TurnReceipt `json:"turns,omitempty"`
	// Actions are a task's accounting, the actions it dispatched, failed or not (never what
	// a type typed: the export of an act in words keeps that).
	Actions []transport.TaskAction `json:"actions,omitempty"`
	// Variables are the variables the do gave (its stdin's "variables"): name → the
	// environment variable an {"env"} one came from, "" for a literal; never a value.
	Variables map[string]string `json:"variables,omitempty"`
	// ExportVariables are the literal variables the export names as {"var": name}, with
	// the value each had: the exported file's variables (as a typed literal is kept).
	ExportVariables map[string]string `json:"exportVariables,omitempty"`
	// NoRecording: an act in words whose action used a variable's value in what it acted on
	// (or mixed a placeholder into other text), exported by its words alone: replaying it
	// needs a model.
	NoRecording bool `json:"noRecording,omitempty"`
	// Upload: the operation uploads files, which the replaying machine must have.
	Upload bool `json:"upload,omitempty"`
	// NotPicked: an upload into words its when skipped before the model picked the file
	// input, so it has no element to be exported by: export leaves it out and warns.
	NotPicked bool `json:"notPicked,omitempty"`
	// URLBefore and URLAfter are the selected page's URL before and after the operation;
	// export warns where one exported operation does not start where the one before ended.
	URLBefore string    `json:"urlBefore,omitempty"`
	URLAfter  string    `json:"urlAfter,omitempty"`
	At        time.Time `json:"at"`
}

// ModelName is the model a session uses, as list and describe show it.
type ModelName struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// modelName is o's model for list and describe (nil without one).
func (o Options) modelName() *ModelName {
	if o.Model == nil {
		return nil
	}
	return &ModelName{Provider: o.Model.Provider, Model: o.Model.Model}
}

// startURL is the page the session's first operation started on.
func (r Record) startURL() string {
	if r.LandedURL != "" {
		return r.LandedURL
	}
	return r.Options.URL
}
