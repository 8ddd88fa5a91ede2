package worker

import "context"

// eventStream is what every mafredri/cdp event client offers: Recv blocks for the next
// event and fails once the stream ends (its context or its connection closed).
type eventStream[E any] interface {
	Recv() (E, error)
	Close() error
}

// receive hands each event of s to each, in order, until the stream ends; then it closes s.
// Event streams are always drained so Chromium never blocks on us.
func receive[E any](s eventStream[E], each func(E)) {
	defer s.Close()
	for next(s, each) {
	}
}

// next hands the next event of s to each; false when the stream has ended.
func next[E any](s eventStream[E], each func(E)) bool {
	ev, err := s.Recv()
	if err != nil {
		return false
	}
	each(ev)
	return true
}

// drain runs receive on a goroutine of its own.
func drain[E any](s eventStream[E], each func(E)) { go receive(s, each) }

// streams opens event streams one after another until one fails: openStream does nothing
// once err is set, so a caller opens all it needs and checks err once.
type streams struct {
	ctx context.Context
	err error
}

// openStream opens one event stream with o's context, unless an earlier one failed.
func openStream[S any](o *streams, f func(context.Context) (S, error)) S {
	var s S
	if o.err == nil {
		s, o.err = f(o.ctx)
	}
	return s
}
