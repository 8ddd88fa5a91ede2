package runtime

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// What a model is shown (docs/models.md "What a model sees"): the system prompt and tools
// below, the goal, the postcondition, the turn and action counts, and the current page —
// its origin and path, title and outline text, bounded and scrubbed of every secret the
// session holds. Earlier turns appear as the calls the model made and short answers; only
// the current page is shown in full.

// taskSystemPrompt is the system prompt; %s is act's line, which says what the host enabled.
const taskSystemPrompt = `You operate a web page for a user, one step per turn, by calling exactly one tool.
The page is given as an outline: one element per line, with a ref in brackets such as [e12] for elements you can act on; give a tool the ref without the brackets (e12).
- locate: find the element an instruction names (by its visible name or label). Ambiguity ends the task, so prefer acting on a ref you can see.
- act: %s Each act is verified and the page is shown again.
- done: say the goal is reached. The page is then checked; your words are not.
Never invent refs. A refused action ends the task. An action that changes nothing on the page closes its element: another action on it is refused.`

// systemPrompt is the system prompt for what the host enabled.
func (t *taskRun) systemPrompt() string {
	if t.combined != nil {
		return fmt.Sprintf(combinedSystemPrompt, t.actLine())
	}
	return fmt.Sprintf(taskSystemPrompt, t.actLine())
}

// actLine is the system prompt's line for act: what the host enabled.
func (t *taskRun) actLine() string {
	line := "one action on one element by ref (" + strings.Join(taskActions, ", ") + ")"
	if t.allow.Navigation {
		line += ", or navigate to a url"
	}
	line += "."
	if t.allow.Dialogs {
		line += ` With dialog "accept", the dialogs the action opens are accepted (else dismissed).`
	}
	return line
}

// offeredActions are the actions act takes, in words, for a refusal's message.
func (t *taskRun) offeredActions() string {
	acts := strings.Join(taskActions, ", ")
	if t.allow.Navigation {
		acts += ", " + actNavigate
	}
	return acts
}

// tools are the tools a task offers: act's arguments are only what the host enabled (a
// model is never offered what would be refused).
func (t *taskRun) tools() []model.Tool {
	actions, what := taskActions, "Perform exactly one action on an element by its ref."
	if t.allow.Navigation {
		actions, what = append(append([]string(nil), taskActions...), actNavigate), "Perform exactly one action: on an element by its ref, or navigate to a url."
	}
	props := map[string]any{
		"action":      map[string]any{"type": "string", "enum": actions},
		"ref":         map[string]string{"type": "string", "description": "the element's ref without its brackets, such as e12"},
		"text":        map[string]string{"type": "string", "description": "type: the text to type"},
		"option":      map[string]string{"type": "string", "description": "select: the option's label"},
		"key":         map[string]string{"type": "string", "description": "press: one character or a key name such as Enter"},
		"allowanceMs": allowanceProperty(),
	}
	if t.allow.Navigation {
		props["url"] = map[string]string{"type": "string", "description": "navigate: the address"}
	}
	if t.allow.Dialogs {
		props["dialog"] = map[string]any{"type": "string", "enum": []string{transport.DialogAccept}, "description": "accept the dialogs the action opens (else they are dismissed)"}
	}
	params, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": []string{"action"}, "additionalProperties": false})
	tools := []model.Tool{
		{Name: transport.ToolLocate, Description: "Find the one element an instruction names, for an action.", Parameters: json.RawMessage(`{"type":"object","properties":{"instruction":{"type":"string","description":"the element's visible name or label"},"action":{"type":"string","enum":["click","type","select","check","uncheck","press"]}},"required":["instruction","action"],"additionalProperties":false}`)},
		{Name: transport.ToolAct, Description: what, Parameters: params},
		{Name: transport.ToolDone, Description: "Say the goal is reached.", Parameters: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
	}
	if t.combined != nil {
		return t.combinedTools(tools)
	}
	return tools
}

// request is the next model call: the goal and the current page, then the turns so far, the
// current page riding on the latest answer.
func (t *taskRun) request() model.Request {
	var goal strings.Builder
	goal.WriteString("Goal: " + t.goal() + "\n")
	if t.hasSecretVariables() {
		goal.WriteString("A value the goal names as a placeholder such as %password% is kept from you: to type it, write the placeholder itself as the text.\n")
	}
	if p := t.req.Postcondition; p != nil {
		fmt.Fprintf(&goal, "The task succeeds when the page's %s is %q (checked by the runtime).\n", postKind(p.Kind), p.Value)
	} else {
		goal.WriteString("Make exactly one action.\n")
	}
	status := fmt.Sprintf("Turn %d of %d; %d of %d actions used.\n", len(t.turns)+1, t.maxTurns, len(t.actions), t.maxActions)
	page := t.pageText()
	if c := t.combined; c != nil {
		status += t.combinedStatus()
		if c.extracting {
			page = "Outline, each line numbered:\n" + c.shown.text
		}
	}
	msgs := []model.Message{{Role: model.RoleUser, Text: t.r.secrets.Scrub(goal.String())}}
	if len(t.history) == 0 {
		msgs[0].Text += status + page
		return model.Request{System: t.systemPrompt(), Messages: t.r.scrubbed(msgs), Tools: t.tools()}
	}
	msgs = append(msgs, t.history...)
	last := &msgs[len(msgs)-1]
	last.Text += "\n" + status + page
	return model.Request{System: t.systemPrompt(), Messages: t.r.scrubbed(msgs), Tools: t.tools()}
}

// scrubbed is msgs with every secret the session holds scrubbed from their text and from the
// tool calls they repeat: the last pass before anything reaches a model.
func (r *Runtime) scrubbed(msgs []model.Message) []model.Message {
	out := make([]model.Message, len(msgs))
	for i, m := range msgs {
		m.Text = r.secrets.Scrub(m.Text)
		if m.Call != nil {
			c := *m.Call
			c.Arguments = r.secrets.ScrubJSON(c.Arguments)
			m.Call = &c
		}
		out[i] = m
	}
	return out
}

func postKind(k string) string {
	if k == transport.PostText {
		return "text (it contains)"
	}
	return k
}

// pageText is the current page as a model sees it: origin and path (never query or
// fragment, which may hold a token), title, and the outline cut at a line boundary to
// budgets.ModelPageChars, every secret the session holds scrubbed.
func (t *taskRun) pageText() string {
	return modelPage(t.r, t.page.URL, t.page.Title, t.page.Nodes, t.page.Truncated)
}

// modelPage renders a page (or an extract's scope) for a model.
func modelPage(r *Runtime, rawURL, title string, nodes []transport.OutlineNode, truncated bool) string {
	where := ""
	if u, err := url.Parse(rawURL); err == nil {
		where = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	}
	text, _ := cutLines(transport.OutlineText(nodes, truncated), budgets.ModelPageChars)
	return r.secrets.Scrub(fmt.Sprintf("Page: %s\nTitle: %q\nOutline:\n%s", where, title, text))
}

// actedText is act's answer to the model: what was done and what changed.
func actedText(a actArgs, node *transport.OutlineNode, d transport.OutlineDiff, changed bool) string {
	var b strings.Builder
	if node != nil {
		fmt.Fprintf(&b, "%s on %s (%s %q) done", a.Action, node.Ref, node.Role, node.Name)
	} else {
		b.WriteString("navigated")
	}
	fmt.Fprintf(&b, "; the outline changed by +%d −%d lines", d.Added, d.Removed)
	if d.DocumentChange {
		b.WriteString("; a new document loaded")
	}
	if !changed {
		b.WriteString("; nothing observable changed, so another action on this element is refused")
	}
	b.WriteString(". The page is shown below as it is now.")
	return b.String()
}

// outlineDiff is the exact diff of two observations' outlines, as counts: lines (as a
// multiset) only in the new one are added, only in the old one removed.
func outlineDiff(before, after *transport.ObserveResult) transport.OutlineDiff {
	count := map[string]int{}
	for _, l := range strings.Split(before.Text, "\n") {
		count[l]++
	}
	d := transport.OutlineDiff{DocumentChange: before.DocumentID != after.DocumentID}
	for _, l := range strings.Split(after.Text, "\n") {
		if count[l] > 0 {
			count[l]--
		} else {
			d.Added++
		}
	}
	for _, n := range count {
		d.Removed += n
	}
	return d
}
