package worker

import (
	"slices"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestPick: nth counts from 0, a negative nth from the end; first and last; an nth past
// either end picks nothing (the look then finds no element); without any, every match.
func TestPick(t *testing.T) {
	hs := make([]*hit, 5)
	for i := range hs {
		hs[i] = &hit{}
		hs[i].el.Name = string(rune('a' + i))
	}
	n := func(i int) *int { return &i }
	for _, c := range []struct {
		tg   transport.Target
		want []int
	}{
		{transport.Target{}, []int{0, 1, 2, 3, 4}},
		{transport.Target{Nth: n(0)}, []int{0}},
		{transport.Target{Nth: n(3)}, []int{3}},
		{transport.Target{Nth: n(-1)}, []int{4}},
		{transport.Target{Nth: n(-5)}, []int{0}},
		{transport.Target{Nth: n(5)}, nil},
		{transport.Target{Nth: n(-6)}, nil},
		{transport.Target{First: true}, []int{0}},
		{transport.Target{Last: true}, []int{4}},
	} {
		var got []int
		for _, h := range pick(hs, c.tg) {
			got = append(got, slices.Index(hs, h))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("pick %s: %v, want %v", c.tg.Describe(), got, c.want)
		}
	}
	if got := pick(nil, transport.Target{Last: true}); len(got) != 0 {
		t.Errorf("pick of nothing: %v", got)
	}
}
