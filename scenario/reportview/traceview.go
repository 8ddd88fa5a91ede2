package reportview

import (
	"bytes"
	"fmt"
	"image/png"
	"path"
	"strconv"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A step trace is shown as a timeline (one bar per step, placed by its start and duration)
// and a filmstrip of thumbnails. Clicking either selects the step (a radio input: the page's
// Content-Security-Policy runs no script) and shows its picture large with its console and
// network summaries and outline. Unlike failure evidence, whose pictures are embedded, the
// trace's pictures are referenced by their path relative to the page (they are many: a
// trace holds up to budgets.TraceBytes), and each is shown only once its file verified
// against its metadata (readEvidence), like evidence.

type traceView struct {
	Key   string // unique on the page: names the steps' radio group
	Steps []traceStepView
}

type traceStepView struct {
	InputID string // the step's radio input
	Checked bool   // the step shown first: the failed one, else the last
	Index   int
	Op, ID  string
	Status  string
	Start   string
	Took    string
	// Left and Width place the step's bar on the timeline, in percent of the trace's span.
	Left, Span string
	// Image is the screenshot's path relative to the page, set only when its file verified
	// as the PNG the report lists; NoImage says why there is none.
	Image      string
	ImgW, ImgH int
	NoImage    string
	// SameAs names the step whose picture stands for this one ("#2"), a step not captured
	// because it could not change the page: Image is then that step's picture.
	SameAs    string
	Redaction string // what the masking did ("" for a failed step: its evidence has none)
	Diag      *evidenceView
}

// traceOf builds the view of steps; imgBase is the artifacts directory relative to the page.
func traceOf(key string, steps []scenario.TraceStep, artifactsDir, imgBase string) *traceView {
	if len(steps) == 0 {
		return nil
	}
	tv := &traceView{Key: key}
	var span int64 = 1
	for _, st := range steps {
		span = max(span, st.StartMs+st.DurationMs)
	}
	checked := len(steps) - 1
	for i, st := range steps {
		if st.Status == scenario.StatusFailed {
			checked = i
			break
		}
	}
	for i, st := range steps {
		sv := traceStepView{InputID: key + "-" + strconv.Itoa(i), Checked: i == checked, Index: st.Index, Op: st.Op, ID: st.ID,
			Status: st.Status, Start: formatMs(st.StartMs), Took: formatMs(st.DurationMs),
			Left:    percent(st.StartMs, span),
			Span:    percent(max(st.DurationMs, span/200), span), // a 0 ms step still shows
			NoImage: st.ScreenshotUnavailable}
		if st.Screenshot != nil {
			sv.showImage(*st.Screenshot, artifactsDir, imgBase)
		} else if sv.NoImage == "" {
			sv.NoImage = "no screenshot"
		}
		if p := st.Redaction; p != nil {
			sv.Redaction = fmt.Sprintf("redaction %s: %d matched, %d masked, %d unmasked", provenWord(p), p.Matched, p.Masked, p.Unmasked)
		}
		var metas []artifacts.Meta
		for _, m := range []*artifacts.Meta{st.Console, st.Network, st.Outline} {
			if m != nil {
				metas = append(metas, *m)
			}
		}
		sv.Diag = loadEvidence(artifactsDir, metas, st.Unavailable)
		tv.Steps = append(tv.Steps, sv)
	}
	// A step not captured again shows the picture that stands for it, once that verified.
	for i, st := range steps {
		if st.SameAs == nil || st.Screenshot != nil {
			continue
		}
		sv := &tv.Steps[i]
		sv.SameAs = "#" + strconv.Itoa(*st.SameAs)
		for _, o := range tv.Steps[:i] {
			if o.Index == *st.SameAs && o.Image != "" {
				sv.Image, sv.ImgW, sv.ImgH = o.Image, o.ImgW, o.ImgH
			}
		}
	}
	return tv
}

// showImage sets the step's picture when its file verifies and decodes as a PNG.
func (sv *traceStepView) showImage(m artifacts.Meta, artifactsDir, imgBase string) {
	if m.Kind != transport.PartScreenshot || m.ContentType != "image/png" {
		sv.NoImage = "screenshot refused: unexpected kind"
		return
	}
	data, err := readEvidence(artifactsDir, m)
	if err != nil {
		sv.NoImage = "screenshot file unavailable: " + err.Error()
		return
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		sv.NoImage = "screenshot file unavailable: not a PNG"
		return
	}
	sv.Image, sv.ImgW, sv.ImgH = path.Join(imgBase, m.Path), cfg.Width, cfg.Height
}

func provenWord(p *transport.RedactionProof) string {
	if p.Proven {
		return "proven"
	}
	return "not proven"
}

func percent(v, of int64) string {
	return strconv.FormatFloat(min(100, float64(v)*100/float64(of)), 'f', 2, 64)
}
