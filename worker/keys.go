package worker

import (
	"context"
	"strings"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/input"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/transport"
)

// keyDef is what Input.dispatchKeyEvent needs for one key.
type keyDef struct {
	key  string // KeyboardEvent.key
	code string // KeyboardEvent.code
	vk   int    // windowsVirtualKeyCode: Blink maps editing shortcuts (Control+A) by it
	text string // what a keyDown without Control, Alt or Meta inserts
}

// keyDefs maps named keys to their definitions.
var keyDefs = map[string]keyDef{
	"Enter": {"Enter", "Enter", 13, "\r"}, "Tab": {"Tab", "Tab", 9, ""}, "Escape": {"Escape", "Escape", 27, ""},
	"Backspace": {"Backspace", "Backspace", 8, ""}, "Delete": {"Delete", "Delete", 46, ""}, "Space": {" ", "Space", 32, " "},
	"ArrowUp": {"ArrowUp", "ArrowUp", 38, ""}, "ArrowDown": {"ArrowDown", "ArrowDown", 40, ""}, "ArrowLeft": {"ArrowLeft", "ArrowLeft", 37, ""},
	"ArrowRight": {"ArrowRight", "ArrowRight", 39, ""}, "Home": {"Home", "Home", 36, ""}, "End": {"End", "End", 35, ""},
	"PageUp": {"PageUp", "PageUp", 33, ""}, "PageDown": {"PageDown", "PageDown", 34, ""},
}

// modifierDefs are the modifier keys with their bit in the modifiers bitmask CDP's input
// events carry (Alt 1, Control 2, Meta 4, Shift 8).
var modifierDefs = map[string]struct {
	keyDef
	bit int
}{
	"Alt":     {keyDef{"Alt", "AltLeft", 18, ""}, 1},
	"Control": {keyDef{"Control", "ControlLeft", 17, ""}, 2},
	"Meta":    {keyDef{"Meta", "MetaLeft", 91, ""}, 4},
	"Shift":   {keyDef{"Shift", "ShiftLeft", 16, ""}, 8},
}

// modifierName resolves ControlOrMeta: Control on Linux, where the worker runs.
func modifierName(m string) string {
	if m == "ControlOrMeta" {
		return "Control"
	}
	return m
}

// defFor is the definition of one key: a named key, a modifier, or one character (a letter
// or digit also gets its code and virtual key code, which shortcuts are matched by).
func defFor(key string) keyDef {
	if k, ok := keyDefs[key]; ok {
		return k
	}
	if m, ok := modifierDefs[modifierName(key)]; ok {
		return m.keyDef
	}
	k := keyDef{key: key, text: key}
	if len(key) == 1 {
		c := strings.ToUpper(key)[0]
		switch {
		case c >= 'A' && c <= 'Z':
			k.code, k.vk = "Key"+string(c), int(c)
		case c >= '0' && c <= '9':
			k.code, k.vk = "Digit"+string(c), int(c)
		}
	}
	return k
}

// keyboard dispatches key events and remembers whether any reached the page, so a failure
// says not_attempted before the first and unknown after it.
type keyboard struct {
	w    *Worker
	t    *tab
	bits int // the modifiers held now
	sent bool
	held []string
}

func (kb *keyboard) fail(err error) error {
	mut := transport.NotAttempted
	if kb.sent {
		mut = transport.Unknown
	}
	return kb.w.cdpFailure(transport.OpAct, mut, err)
}

func (kb *keyboard) dispatch(ctx context.Context, typ string, k keyDef) error {
	args := input.NewDispatchKeyEventArgs(typ).SetKey(k.key).SetModifiers(kb.bits)
	if k.code != "" {
		args.SetCode(k.code)
	}
	if k.vk != 0 {
		args.SetWindowsVirtualKeyCode(k.vk).SetNativeVirtualKeyCode(k.vk)
	}
	// Text only without Control, Alt or Meta held, as a keyboard: Control+A selects.
	if typ == "keyDown" && k.text != "" && kb.bits&^8 == 0 {
		args.SetText(k.text).SetUnmodifiedText(k.text)
	}
	if err := kb.t.c.Input.DispatchKeyEvent(ctx, args); err != nil {
		return kb.fail(err)
	}
	kb.sent = true
	return nil
}

// hold presses the modifiers down, in order, each with the bitmask of those held so far.
func (kb *keyboard) hold(ctx context.Context, mods []string) error {
	for _, m := range mods {
		d := modifierDefs[modifierName(m)]
		if kb.bits&d.bit != 0 {
			continue
		}
		kb.bits |= d.bit
		if err := kb.dispatch(ctx, "keyDown", d.keyDef); err != nil {
			return err
		}
		kb.held = append(kb.held, modifierName(m))
	}
	return nil
}

// release lets the held modifiers go, last first. It runs even after a failure (the page
// must not be left with a modifier down) and reports only its own first error.
func (kb *keyboard) release(ctx context.Context) error {
	var first error
	for i := len(kb.held) - 1; i >= 0; i-- {
		d := modifierDefs[kb.held[i]]
		kb.bits &^= d.bit
		if err := kb.dispatch(ctx, "keyUp", d.keyDef); err != nil && first == nil {
			first = err
		}
	}
	kb.held = nil
	return first
}

// pressKeys presses press's key: its modifiers down, the key down and up, the modifiers up
// ("Control+Shift+ArrowLeft").
func (w *Worker) pressKeys(ctx context.Context, t *tab, key string) error {
	mods, k := transport.SplitKey(key)
	kb := &keyboard{w: w, t: t}
	err := kb.hold(ctx, mods)
	if err == nil {
		d := defFor(k)
		if err = kb.dispatch(ctx, "keyDown", d); err == nil {
			err = kb.dispatch(ctx, "keyUp", d)
		}
	}
	if rerr := kb.release(ctx); err == nil {
		err = rerr
	}
	return err
}

// press focuses the element and presses the key; without an element, the key goes to
// whatever has focus in the page (a keydown on the document confirms it landed).
func (w *Worker) press(ctx context.Context, t *tab, el *element, key string) (transport.MutationState, error) {
	if el == nil {
		doc, err := w.pageDocument(ctx, t)
		if err != nil {
			return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
		}
		el = doc
	} else if err := el.c.DOM.Focus(ctx, dom.NewFocusArgs().SetBackendNodeID(el.Backend)); err != nil {
		return "", actError(transport.CodeElementNotActionable, "%s %s %q cannot take focus", el.Ref, el.Role, el.Name)
	}
	if err := w.call(ctx, t, el, watchFn, nil, "keydown"); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	if err := w.pressKeys(ctx, t, key); err != nil {
		return "", err
	}
	if w.landed(ctx, t, el, "keydown") {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// pageDocument is the tab's main-frame document, in our isolated world, to call our fixed
// functions on as if it were an element.
func (w *Worker) pageDocument(ctx context.Context, t *tab) (*element, error) {
	world, err := t.worldIn(ctx, "")
	if err != nil {
		return nil, err
	}
	r, err := t.c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("document").SetContextID(world))
	if err != nil {
		return nil, err
	}
	if r.Result.ObjectID == nil {
		return nil, errScript
	}
	return &element{c: t.c, object: *r.Result.ObjectID}, nil
}
