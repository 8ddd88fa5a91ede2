package scenario

import (
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// FileVersion is the only scenario file version this build reads.
const FileVersion = 1

// File is one scenario file v1 (docs/scenarios.md documents every field).
type File struct {
	// Schema is the JSON Schema an editor validates the file with ("$schema"; `fastbrowser
	// schema` prints it). It is not interpreted.
	Schema         string     `json:"$schema,omitempty"`
	Version        int        `json:"version" required:"true"`
	ID             string     `json:"id" required:"true"`
	Description    string     `json:"description,omitempty"`
	Tags           []string   `json:"tags,omitempty"` // for `run --grep` ("@smoke", "routing"); tags.go bounds them
	Fixture        *Fixture   `json:"fixture,omitempty"`
	Hooks          *Hooks     `json:"hooks,omitempty"`
	Budgets        *Budgets   `json:"budgets,omitempty"`
	AllowedOrigins []string   `json:"allowedOrigins,omitempty"`
	Egress         *Egress    `json:"egress,omitempty"`
	Redaction      *Redaction `json:"redaction,omitempty"`
	// Viewport lays every page of the scenario out at this size in CSS pixels (absent: the
	// browser's own, 800x600 headless).
	Viewport *transport.Viewport `json:"viewport,omitempty"`
	// TestIDAttribute is the attribute a testId locator compares (absent: data-testid, as
	// Playwright's testIdAttribute).
	TestIDAttribute string `json:"testIdAttribute,omitempty"`
	// Model is the model task and extract use (docs/models.md); absent: none, and those
	// operations fail model_required while the others run.
	Model *model.Config `json:"model,omitempty"`
	// ExpectTimeoutMs is the timeoutMs of every assert that gives none, as Playwright's
	// expect.timeout (absent: the assertion budget's default); ActionTimeoutMs the request
	// budget (timeoutMs) of every act and step that gives none, as Playwright's
	// actionTimeout (absent: the request budget's default). Each wins over the run
	// config's; the scenario budget still bounds every operation (defaulttimeouts.go).
	ExpectTimeoutMs int64       `json:"expectTimeoutMs,omitempty"`
	ActionTimeoutMs int64       `json:"actionTimeoutMs,omitempty"`
	Operations      []Operation `json:"operations" required:"true"`

	// Variables are the values {"var": "NAME"} stands for in operations (vars.go); a
	// project's and --var's win over them.
	Variables map[string]string `json:"variables,omitempty"`

	// fixtureFrom is the run config that supplied Fixture ("" for the file's own), so a
	// refusal about it names the file it is written in.
	fixtureFrom string
}

// Fixture is the site a scenario runs against.
type Fixture struct {
	BaseURL string  `json:"baseUrl" required:"true"`
	Server  *Server `json:"server,omitempty"`
}

// Server modes.
const (
	ModeManaged  = "managed"  // the runner starts, owns and stops the server
	ModeExternal = "external" // already running; the runner only probes readiness
)

// Server is a managed or external fixture server.
type Server struct {
	Mode          string    `json:"mode" required:"true"`
	Start         *Command  `json:"start,omitempty"`
	Readiness     Readiness `json:"readiness" required:"true"`
	ReuseExisting bool      `json:"reuseExisting,omitempty"`
}

// Command is trusted argv: no shell, no interpolation.
type Command struct {
	Command   string              `json:"command" required:"true"`
	Args      []string            `json:"args,omitempty"`
	Cwd       string              `json:"cwd,omitempty"`
	Env       map[string]EnvValue `json:"env,omitempty"`
	TimeoutMs int64               `json:"timeoutMs,omitempty"` // hooks only
}

// Readiness is a GET probe: the URL must answer ExpectedStatus within TimeoutMs.
type Readiness struct {
	URL            string `json:"url" required:"true"`
	ExpectedStatus int    `json:"expectedStatus,omitempty"`
	TimeoutMs      int64  `json:"timeoutMs,omitempty"`
}

// Hooks are one-shot commands around the operations.
type Hooks struct {
	Setup   *Command `json:"setup,omitempty"`
	Reset   *Command `json:"reset,omitempty"`
	Cleanup *Command `json:"cleanup,omitempty"`
}

// Budgets is the scenario's own budget.
type Budgets struct {
	TimeoutMs int64 `json:"timeoutMs" required:"true"`
}

// Operation is one entry of "operations". Request is decoded per op after the envelope.
// An entry with Include is replaced at load by a fragment's operations (fragment.go); every
// other entry needs Op (checked after expansion, with the same message a strict decode gives).
type Operation struct {
	ID      string          `json:"id,omitempty"`
	Op      string          `json:"op,omitempty"`
	Include string          `json:"include,omitempty"`
	Request json.RawMessage `json:"request,omitempty"`
	Step    json.RawMessage `json:"step,omitempty"` // op "step" only
	// Context applies an earlier narrowOriginPolicy's context to this operation; without
	// it the operation runs under the scenario's base origins.
	Context *ContextRef `json:"context,omitempty"`
	// TimeoutMs is this operation's request budget (0: the default 10 s; ceiling 120 s). It
	// bounds act (a step's too) and calls without a budget of their own; the scenario
	// budget still bounds it.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// When is the operation's condition (when.go): read once before it runs; when it does
	// not hold the operation is skipped.
	When *When `json:"when,omitempty"`
	// Soft makes an assert a soft assertion, as Playwright's expect.soft: when it fails
	// (assertion_failed or element_not_found) the failure is recorded and the scenario goes
	// on; the scenario fails at its end. Any other failure still ends the scenario.
	Soft bool `json:"soft,omitempty"`
	// Words, on op "act" only, is the act in words (actwords.go): Request is then its
	// recording, replayed without a model and healed by the words when it no longer matches;
	// without a Request the act always runs by its words (a model is needed).
	Words string `json:"words,omitempty"`
	// Variables (only with Words) are the values the words name as %name%, passed to the
	// task that heals as its variables: a literal, or {"env": NAME} never shown to a model.
	Variables map[string]*transport.Text `json:"variables,omitempty"`
	// ReplayIf (only with Words and Request) gates the replay: the recording is replayed
	// only while each named variable's value has the recorded salted digest.
	ReplayIf []ReplayCondition `json:"replayIf,omitempty"`

	// req is the decoded request (relative URLs already resolved); step replaces it for
	// op "step".
	req  *fileRequest
	step *Step

	// Set by include expansion: where the operation was written (nil: the scenario file
	// itself; else the include entries that brought it in), its index there, the references
	// it may use (ids and indexes as written in its own file), and that file's directory
	// (upload paths resolve against it).
	from  []includeHop
	at    int
	scope *refScope
	dir   string
	// written is where the entry is in its own file (the fragment's for an included one),
	// for the report's location and code frame; nil when not known.
	written *opSource
}

// ContextRef names the narrowOriginPolicy operation whose context applies.
type ContextRef struct {
	Operation OpRef `json:"operation" required:"true"`
}

// Egress says what a request the origin policy refuses does to the scenario.
type Egress struct {
	// Subresources: "fail" (default) ends the operation with egress_denied; "report" only
	// lists the refused request on the operation. A refused navigation always fails.
	Subresources SubresourcesMode `json:"subresources,omitempty"`
	// ServiceWorkers: "block" (default) refuses service worker registration and shared
	// workers, because their fetches escape interception; "allow" opts in to both.
	ServiceWorkers BlockOrAllow `json:"serviceWorkers,omitempty"`
	// WebRTC: "block" (default) makes RTCPeerConnection throw, because ICE traffic (STUN,
	// TURN, ICE checks) escapes interception; "allow" opts in (see docs/protocol.md "Egress").
	WebRTC BlockOrAllow `json:"webrtc,omitempty"`
}

// Redaction lists what failure screenshots must mask besides password fields and fields a
// secret was typed into (always masked). A screenshot whose masking cannot be proven is not
// kept (redaction_not_proven).
type Redaction struct {
	Rules []transport.RedactionRule `json:"rules" required:"true"`
}
