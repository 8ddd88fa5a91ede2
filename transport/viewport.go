package transport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Viewport is the size in CSS pixels every page of a session is laid out at (a scenario's
// "viewport", the worker's --viewport WIDTHxHEIGHT). The zero Viewport leaves the browser's
// own size.
type Viewport struct {
	Width  int `json:"width" required:"true"`
	Height int `json:"height" required:"true"`
}

// IsZero reports whether v leaves the browser's own size.
func (v Viewport) IsZero() bool { return v.Width == 0 && v.Height == 0 }

// Check refuses a size outside budgets.ViewportMin–ViewportMax on either side.
func (v Viewport) Check() error {
	for _, n := range []int{v.Width, v.Height} {
		if n < budgets.ViewportMin || n > budgets.ViewportMax {
			return fmt.Errorf("expected a width and a height of %d–%d pixels", budgets.ViewportMin, budgets.ViewportMax)
		}
	}
	return nil
}

// String is the flag form, WIDTHxHEIGHT.
func (v Viewport) String() string { return strconv.Itoa(v.Width) + "x" + strconv.Itoa(v.Height) }

// ParseViewport reads the flag form WIDTHxHEIGHT and checks it.
func ParseViewport(s string) (Viewport, error) {
	w, h, ok := strings.Cut(s, "x")
	var v Viewport
	var errW, errH error
	v.Width, errW = strconv.Atoi(w)
	v.Height, errH = strconv.Atoi(h)
	if !ok || errW != nil || errH != nil {
		return Viewport{}, fmt.Errorf("expected WIDTHxHEIGHT in pixels, e.g. 1280x720")
	}
	return v, v.Check()
}
