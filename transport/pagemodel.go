package transport

// The page model: observe, act and waitPopup (issue 3).

// Observe asks for the page outline.
type Observe struct {
	op[Observe, ObserveResult]
	Tab          string `json:"tab,omitempty" handle:"tab"`
	MaxNodes     int    `json:"maxNodes,omitempty"`
	MaxDepth     int    `json:"maxDepth,omitempty"`
	MaxTextChars int    `json:"maxTextChars,omitempty"`
}

// Page classes an outline can carry (docs/protocol.md "Page classes").
const (
	PageNormal    = "normal"
	PageLogin     = "login"
	PageBotCheck  = "bot_check"
	PageHTTPError = "http_error"
)

// PageClasses lists the page classes, in documentation order.
var PageClasses = []string{PageNormal, PageLogin, PageBotCheck, PageHTTPError}

// OutlineNode is one element of the outline. Values of text fields are never included.
type OutlineNode struct {
	Ref      string        `json:"ref,omitempty"`      // e12: an actionable element, bound to tab and documentId
	Role     string        `json:"role"`               // ARIA role (heading, textbox, button, link, table, row, …)
	Name     string        `json:"name,omitempty"`     // accessible name
	Text     string        `json:"text,omitempty"`     // static text (role "text")
	Level    int           `json:"level,omitempty"`    // heading level
	Checked  string        `json:"checked,omitempty"`  // "true" | "false" | "mixed" for checkboxes, radios, switches
	Selected string        `json:"selected,omitempty"` // a select's chosen option label
	Options  []string      `json:"options,omitempty"`  // a select's option labels
	Href     string        `json:"href,omitempty"`     // a link's address: a path on the page's own origin
	Disabled bool          `json:"disabled,omitempty"`
	Required bool          `json:"required,omitempty"`
	More     int           `json:"more,omitempty"` // on a collapsed group: how many alike children were left out
	Children []OutlineNode `json:"children,omitempty"`
}

// ObserveResult is the outline and what it describes.
type ObserveResult struct {
	Egress
	Tab        string        `json:"tab" handle:"tab"`
	URL        string        `json:"url"`
	Title      string        `json:"title"`
	DocumentID string        `json:"documentId"`
	PageClass  string        `json:"pageClass"`
	Truncated  bool          `json:"truncated"`
	Nodes      []OutlineNode `json:"nodes"`
	Text       string        `json:"text"` // the compact rendering for people and models
}

// Act actions.
const (
	ActClick          = "click"
	ActDblclick       = "dblclick"
	ActHover          = "hover"
	ActFocus          = "focus"
	ActBlur           = "blur"
	ActType           = "type"
	ActFill           = "fill"
	ActClear          = "clear"
	ActSelect         = "select"
	ActCheck          = "check"
	ActUncheck        = "uncheck"
	ActPress          = "press"
	ActUpload         = "upload"
	ActDragTo         = "dragTo"
	ActScrollIntoView = "scrollIntoView"
)

// ActActions lists act's actions, in documentation order.
var ActActions = []string{ActClick, ActDblclick, ActHover, ActFocus, ActBlur, ActType, ActFill, ActClear,
	ActSelect, ActCheck, ActUncheck, ActPress, ActUpload, ActDragTo, ActScrollIntoView}

// ActFields maps each action that needs a request field of its own to that field's JSON
// name: the action needs it and no other action may carry it (Validate; the scenario
// schema's actionFields is generated from it).
var ActFields = map[string]string{ActType: "text", ActFill: "text", ActSelect: "option", ActPress: "key", ActUpload: "files", ActDragTo: "to"}

// Mouse buttons a click may use.
const (
	ButtonLeft   = "left"
	ButtonRight  = "right"
	ButtonMiddle = "middle"
)

// MouseButtons lists them, in documentation order.
var MouseButtons = []string{ButtonLeft, ButtonRight, ButtonMiddle}

// Modifier keys an action may hold, and press may name before its key ("Control+A").
// ControlOrMeta is Control on Linux (where the worker runs).
var Modifiers = []string{"Alt", "Control", "ControlOrMeta", "Meta", "Shift"}

// PointerActions take button, clickCount, modifiers and position as the table in
// docs/protocol.md says: click all four, dblclick all but clickCount, hover and dragTo
// modifiers and position.
var PointerActions = []string{ActClick, ActDblclick, ActHover, ActDragTo}

// Point is a position relative to an element's top-left corner, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Act performs one action on one element, or (press without a target) on the page.
type Act struct {
	op[Act, ActResult]
	Tab    string   `json:"tab,omitempty" handle:"tab"`
	Action string   `json:"action" required:"true"`
	Target Target   `json:"target,omitzero"`  // every action's but press's, which without one goes to the focused element
	Text   *Text    `json:"text,omitempty"`   // type, fill: the field's new content
	Option string   `json:"option,omitempty"` // select: label, else value
	Key    string   `json:"key,omitempty"`    // press: a key, with modifiers before it ("Control+A")
	Files  []string `json:"files,omitempty"`  // upload: paths under the working directory
	To     *Target  `json:"to,omitempty"`     // dragTo: the element to drop on

	// Pointer options (PointerActions): which button, how many clicks (click: 1–3), which
	// modifier keys are held, and where on the element (default: the centre of its box).
	Button     string   `json:"button,omitempty"`
	ClickCount int      `json:"clickCount,omitempty"`
	Modifiers  []string `json:"modifiers,omitempty"`
	Position   *Point   `json:"position,omitempty"`

	// Force skips the checks that are not essential (visible, stable, enabled, receives
	// events): the element must still be attached and of the right kind. Trial runs the
	// checks and stops before acting: the receipt says trial and mutationState is
	// not_attempted, since nothing reached the page. NoWaitAfter returns as soon as the input is dispatched, without waiting
	// for a navigation the action started to commit and load.
	Force       bool `json:"force,omitempty"`
	Trial       bool `json:"trial,omitempty"`
	NoWaitAfter bool `json:"noWaitAfter,omitempty"`

	// Dialog "accept" accepts the JavaScript dialogs this tab opens while the act runs
	// (default: dismissed); PromptText, only with accept, is what a prompt gets. A literal.
	Dialog     string `json:"dialog,omitempty"`
	PromptText string `json:"promptText,omitempty"`
	// SecretText marks the typed text as a secret: the worker then masks the field in every
	// screenshot. The runtime sets it for {"env":…} text, which reaches the worker resolved;
	// a scenario file cannot (file:"-").
	SecretText bool `json:"secretText,omitempty" file:"-"`
}

// Receipt records what an action did, never what was typed.
type Receipt struct {
	Action      string `json:"action"`
	Ref         string `json:"ref"`
	Role        string `json:"role"`
	Name        string `json:"name"`
	TypedLength *int   `json:"typedLength,omitempty"`
	Option      string `json:"option,omitempty"`
	Key         string `json:"key,omitempty"`
	Checked     string `json:"checked,omitempty"`
	Files       int    `json:"files,omitempty"`
	Trial       bool   `json:"trial,omitempty"` // the checks passed and nothing was dispatched
}

// ActResult is the receipt and what the action's effect was seen to be.
type ActResult struct {
	Egress
	Tab           string        `json:"tab" handle:"tab"`
	Receipt       Receipt       `json:"receipt"`
	MutationState MutationState `json:"mutationState"` // verified or unknown; not_attempted for a trial
	DocumentID    string        `json:"documentId"`    // after the action
}

// WaitPopup waits for a popup opened by opener (default: the selected tab). A popup opened
// before the wait is not lost: the oldest unclaimed one is returned at once.
type WaitPopup struct {
	op[WaitPopup, WaitPopupResult]
	Opener string `json:"opener,omitempty" handle:"tab"`
}

// WaitPopupResult is an owned handle; the selection does not change.
type WaitPopupResult struct {
	Egress
	Popup        string `json:"popup" handle:"tab"`
	Opener       string `json:"opener" handle:"tab"`
	URL          string `json:"url"`
	AutoSwitched bool   `json:"autoSwitched"`
}
