package sessions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// DescribeRequest is `session describe`'s: what to show besides the outline.
type DescribeRequest struct {
	Find       string `json:"find,omitempty"`
	Tree       bool   `json:"tree,omitempty"`
	Screenshot bool   `json:"screenshot,omitempty"`
}

// DescribeResult is `session describe`'s output.
type DescribeResult struct {
	Page
	// Matches is how many outline lines contain Find (with --find; Outline keeps them and
	// the lines they sit in).
	Matches *int `json:"matches,omitempty"`
	// Tree is the outline's structure (--tree), for debugging: bounded like observe.
	Tree []transport.OutlineNode `json:"tree,omitempty"`
	// Screenshot is the redacted screenshot's path in the artifact store (--screenshot),
	// and Redaction what was masked in it.
	Screenshot string                    `json:"screenshot,omitempty"`
	Redaction  *transport.RedactionProof `json:"redaction,omitempty"`
	Refused    *Refused                  `json:"refused,omitempty"`
	// Model is the session's model (--model), if it has one.
	Model *ModelName `json:"model,omitempty"`
}

func (h *Host) describe(ctx context.Context, raw json.RawMessage) (any, error) {
	var req DescribeRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, Errorf(CodeInvalidInput, "the describe request is malformed")
	}
	if len(req.Find) > budgets.AssertValueChars {
		return nil, Errorf(CodeInvalidInput, "--find: at most %d characters", budgets.AssertValueChars)
	}
	out := &DescribeResult{Model: h.modelName}
	v, nodes := h.observe(ctx) // one look gives the outline and, with --tree, its structure
	if req.Tree {
		if v.Error != nil {
			return nil, Errorf(CodeOperationFailed, "the page could not be read: %s", v.Error.Message)
		}
		out.Tree = nodes
	}
	h.setPage(v)
	out.Page, out.Refused = h.page.Page, refusal(h.page.Page, h.pageStatus())
	if req.Find != "" {
		text, n := findLines(out.Outline, req.Find)
		out.Outline, out.Matches = text, &n
	}
	if req.Screenshot {
		sr, err := transport.Dispatch(ctx, h.rt, transport.Screenshot{})
		if err != nil {
			h.noteCrash(err)
			return nil, Errorf(CodeOperationFailed, "the screenshot was not taken: %s", AsError(err).Message)
		}
		if sr.Artifact != nil {
			out.Screenshot = h.artifactPath(sr.Artifact.Path)
		}
		out.Redaction = sr.Redaction
	}
	return out, nil
}

// findLines keeps the outline lines that contain find (case-insensitively) and every line
// they sit in (the nearest less-indented line before, up to the root), in order.
func findLines(outline, find string) (string, int) {
	lines := strings.Split(outline, "\n")
	keep := make([]bool, len(lines))
	needle := strings.ToLower(find)
	n := 0
	for i, l := range lines {
		if !strings.Contains(strings.ToLower(l), needle) {
			continue
		}
		n++
		keep[i] = true
		depth := indent(l)
		for j := i - 1; j >= 0 && depth > 0; j-- {
			if d := indent(lines[j]); d < depth && strings.TrimSpace(lines[j]) != "" {
				keep[j], depth = true, d
			}
		}
	}
	var out []string
	for i, l := range lines {
		if keep[i] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n"), n
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
