package worker

import (
	"context"

	"github.com/mafredri/cdp/protocol/input"

	"github.com/fastbrowser/fastbrowser/transport"
)

// pointer is how a pointer action uses the mouse: which button, how many clicks, which
// modifier keys are held.
type pointer struct {
	button input.MouseButton
	count  int
	mods   []string
}

// pointerOf reads act's pointer options: dblclick is a click counted twice.
func pointerOf(r *transport.Act) pointer {
	p := pointer{button: input.MouseButtonLeft, count: 1, mods: r.Modifiers}
	switch r.Button {
	case transport.ButtonRight:
		p.button = input.MouseButtonRight
	case transport.ButtonMiddle:
		p.button = input.MouseButtonMiddle
	}
	if r.ClickCount > 0 {
		p.count = r.ClickCount
	}
	if r.Action == transport.ActDblclick {
		p.count = 2
	}
	return p
}

// buttonBit is the button in the buttons bitmask of a mouse event.
func buttonBit(b input.MouseButton) int {
	switch b {
	case input.MouseButtonRight:
		return 2
	case input.MouseButtonMiddle:
		return 4
	}
	return 1
}

// landsAs is the event whose arrival on the element says the pointer input landed: click for
// a left click, dblclick for a double one, contextmenu for a right click, auxclick for a
// middle one.
func (p pointer) landsAs() string {
	switch {
	case p.button == input.MouseButtonRight:
		return "contextmenu"
	case p.button == input.MouseButtonMiddle:
		return "auxclick"
	case p.count == 2:
		return "dblclick"
	}
	return "click"
}

// mouse dispatches mouse events with the modifiers a keyboard holds, and tells not_attempted
// from unknown on failure as the keyboard does.
type mouse struct{ kb *keyboard }

func (m mouse) event(ctx context.Context, typ string, at point, b input.MouseButton, buttons, count int) error {
	args := input.NewDispatchMouseEventArgs(typ, at.x, at.y).SetModifiers(m.kb.bits).SetButtons(buttons).SetButton(b)
	if count > 0 {
		args.SetClickCount(count)
	}
	if err := m.kb.t.c.Input.DispatchMouseEvent(ctx, args); err != nil {
		return m.kb.fail(err)
	}
	m.kb.sent = true
	return nil
}

// click clicks once with the left button at the point awaitTarget found free (check,
// uncheck and download click so).
func (w *Worker) click(ctx context.Context, t *tab, el *element, at point) (transport.MutationState, error) {
	return w.clickWith(ctx, t, el, at, pointer{button: input.MouseButtonLeft, count: 1})
}

// clickWith clicks as Playwright's mouse.click does: the modifiers down (real key events, and
// held in every mouse event's bitmask), a move to the point, then for each click n of count a
// press and a release with clickCount n, then the modifiers up. It is verified when the
// event the click should fire (landsAs) reached the element.
func (w *Worker) clickWith(ctx context.Context, t *tab, el *element, at point, p pointer) (transport.MutationState, error) {
	ev := p.landsAs()
	if err := w.call(ctx, t, el, watchFn, nil, ev); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	kb := &keyboard{w: w, t: t}
	m := mouse{kb}
	err := kb.hold(ctx, p.mods)
	if err == nil {
		err = m.event(ctx, "mouseMoved", at, input.MouseButtonNone, 0, 0)
	}
	for n := 1; err == nil && n <= p.count; n++ {
		if err = m.event(ctx, "mousePressed", at, p.button, buttonBit(p.button), n); err == nil {
			err = m.event(ctx, "mouseReleased", at, p.button, 0, n)
		}
	}
	if rerr := kb.release(ctx); err == nil {
		err = rerr
	}
	if err != nil {
		return "", err
	}
	if w.landed(ctx, t, el, ev) {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// hover moves the mouse to the point, with the modifiers held. It is verified when the
// element matches :hover.
func (w *Worker) hover(ctx context.Context, t *tab, el *element, at point, p pointer) (transport.MutationState, error) {
	kb := &keyboard{w: w, t: t}
	err := kb.hold(ctx, p.mods)
	if err == nil {
		err = mouse{kb}.event(ctx, "mouseMoved", at, input.MouseButtonNone, 0, 0)
	}
	if rerr := kb.release(ctx); err == nil {
		err = rerr
	}
	if err != nil {
		return "", err
	}
	return w.verify(ctx, t, el, `function () { return this.matches(':hover'); }`), nil
}
