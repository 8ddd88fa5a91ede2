package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A combined task (request.extract; docs/models.md "Combined tasks") acts until its
// postcondition holds and then extracts, within the task's one budget: the same turns,
// actions and timeout. Its model is offered exactly locate, act and extract on every turn
// (the profile never changes mid-task), and the runtime checks the task's phase before it
// authorises either: act is refused once the postcondition holds, extract before. The
// extraction is checked as an extract's is (checkExtractReply) against what the model was
// shown after the postcondition held: the page as observed then, or, once per task, the
// subtree of one ref of it read afresh (the extract tool's scope).

// combinedTask is a combined task's extraction state.
type combinedTask struct {
	schema     *jsonschema.Schema
	rawSchema  []byte
	extracting bool         // the postcondition held: only extract and locate are admitted
	scoped     bool         // the one subtree read is spent
	shown      *extractPage // what the model is shown to extract from and may cite
	data       json.RawMessage
	cites      map[string]string
}

// newCombined compiles a combined task's schema (Validate already refused a bad one).
func newCombined(req *transport.Task) (*combinedTask, error) {
	if req.Extract == nil {
		return nil, nil
	}
	schema, err := transport.CompileExtractSchema(req.Extract.Schema)
	if err != nil {
		return nil, asTask(err, "")
	}
	return &combinedTask{schema: schema, rawSchema: req.Extract.Schema}, nil
}

// held is what a task does when its postcondition holds: a plain task is done; a combined
// one begins extracting from the page as just observed, and goes on.
func (t *taskRun) held() (done bool) {
	c := t.combined
	if c == nil {
		return true
	}
	if !c.extracting {
		c.extracting = true
		c.shown = t.r.renderExtractPage(t.page, t.page.Nodes)
	}
	return false
}

// handleCombined answers a combined task's turn: the phase decides what is admitted before
// anything is authorised or dispatched.
func (t *taskRun) handleCombined(ctx context.Context, call model.ToolCall, rc *transport.TurnReceipt) (bool, error) {
	c := t.combined
	switch call.Name {
	case transport.ToolExtract:
		rc.Tool = transport.ToolExtract
		if !c.extracting {
			return false, refuse(t.mutation, "extract refused: the task's postcondition has not held yet; a combined task extracts only after it does")
		}
		return t.extract(ctx, call)
	case transport.ToolAct:
		if c.extracting {
			rc.Tool = transport.ToolAct
			return false, refuse(t.mutation, "act refused: the task's postcondition holds; a combined task only extracts from here")
		}
		done, err := t.handle(ctx, call, rc)
		if done {
			done = t.held()
		}
		return done, err
	case transport.ToolLocate:
		// Bounded like any turn, and read-only: admitted in either phase.
		return t.handle(ctx, call, rc)
	case transport.ToolDone:
		rc.Tool = ""
		return false, refuse(t.mutation, "the model called no tool; a combined task ends by extract once its postcondition holds")
	default:
		rc.Tool = "unknown"
		return false, refuse(t.mutation, "the model called a tool the task does not offer (locate, act and extract are offered)")
	}
}

// combinedArgs are the combined task's extract arguments: data and citations, or a scope
// alone (the one subtree read).
type combinedArgs struct {
	Data      json.RawMessage   `json:"data,omitempty"`
	Citations map[string]string `json:"citations,omitempty"`
	Scope     string            `json:"scope,omitempty"`
}

// extract answers the model's extract in the extract phase: a scope alone reads that ref's
// subtree afresh (once per task) and shows it; data is checked as an extract's answer is,
// against what the model was last shown.
func (t *taskRun) extract(ctx context.Context, call model.ToolCall) (bool, error) {
	c := t.combined
	var a combinedArgs
	if err := strictArgs(call.Arguments, &a); err != nil {
		return false, refuse(t.mutation, `extract's arguments: %s ({"data", "citations"} or {"scope"})`, err)
	}
	if a.Scope != "" {
		if len(a.Data) > 0 || a.Citations != nil {
			return false, refuse(t.mutation, "extract takes a scope alone (to read one subtree) or data and citations, not both")
		}
		return false, t.readScope(ctx, call, modelRef(a.Scope))
	}
	data, cites, err := checkExtractReply(model.Reply{Calls: []model.ToolCall{call}}, c.schema, c.shown)
	if err != nil {
		return false, asTask(err, t.mutation)
	}
	c.data, c.cites = data, cites
	return true, nil
}

// readScope is the combined task's one subtree read: ref must be one the model was shown; a
// fresh observation (floor-checked, like every observation of the task) finds it again, and
// its subtree becomes what the model extracts from and may cite.
func (t *taskRun) readScope(ctx context.Context, call model.ToolCall, ref string) error {
	c := t.combined
	if c.scoped {
		return refuse(t.mutation, "extract's scope refused: a combined task reads one subtree, and it was read")
	}
	if _, shown := c.shown.cites[ref]; !shown || !refShape.MatchString(ref) || ref[0] != 'e' {
		return refuse(t.mutation, "extract's scope names %s, which is not an element ref of the outline the model was shown", refName(ref))
	}
	c.scoped = true
	if err := t.observe(ctx); err != nil {
		return err
	}
	n := findRef(t.page.Nodes, ref)
	if n == nil {
		return transport.NewError(transport.OpTask, transport.PhaseExecute, transport.CodeElementNotFound, transport.RetryNever, t.mutation,
			"extract's scope %s is no longer in the page", ref)
	}
	c.shown = t.r.renderExtractPage(t.page, []transport.OutlineNode{*n})
	t.answer(call, fmt.Sprintf("The subtree of %s is shown below, read afresh: map it with extract (data and citations); cite only its lines.", ref))
	return nil
}

// combinedSystemPrompt is a combined task's system prompt; %s is act's line.
const combinedSystemPrompt = `You operate a web page for a user, one step per turn, by calling exactly one tool, and then read data from it.
The page is given as an outline: one element per line, with a ref in brackets such as [e12] for elements you can act on; give a tool the ref without the brackets (e12).
- locate: find the element an instruction names (by its visible name or label). Ambiguity ends the task, so prefer acting on a ref you can see.
- act: %s Each act is verified and the page is shown again. Once the task's condition holds, act is refused.
- extract: only once the runtime says the condition holds. Give "data" fitting its schema, only what the outline shows, and "citations": for every string, number and boolean in data, the ref (e12) or line id (L7) of the line it came from, keyed by its JSON Pointer (such as /items/0/name); copy a string from the text of the line you cite or of the lines under it. Or, once, give "scope" alone, an element's ref, to be shown that element's subtree read afresh.
Never invent refs. A refused call ends the task. An action that changes nothing on the page closes its element: another action on it is refused.`

// combinedTools are a combined task's tools: locate and act as a task's, and extract, whose
// data is the request's schema and which may instead take a scope.
func (t *taskRun) combinedTools(base []model.Tool) []model.Tool {
	params, err := extractParams(t.combined.rawSchema, map[string]any{
		"scope": map[string]string{"type": "string", "description": "instead of data: an element's ref, to be shown its subtree (once)"},
	})
	out := make([]model.Tool, 0, 3)
	for _, tool := range base {
		if tool.Name != transport.ToolDone {
			out = append(out, tool)
		}
	}
	if err != nil {
		return out // unreachable: Validate compiled the schema, so it decodes
	}
	return append(out, model.Tool{Name: transport.ToolExtract, Description: "Once the condition holds: give the data the page shows, fitting the schema, and the outline ref or line id each value came from.", Parameters: params})
}

// combinedStatus is what a combined task's model is told about its phase, with the page it
// is shown: the numbered outline to extract from once the postcondition holds.
func (t *taskRun) combinedStatus() string {
	if !t.combined.extracting {
		return "Once the condition holds you will be told, and then call extract.\n"
	}
	return "The condition holds: act is now refused. Call extract with the data the outline below shows (each line starts with its line id).\n"
}
