package worker

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
	for {
		ev, err := s.Recv()
		if err != nil {
			return
		}
		each(ev)
	}
}

// drain runs receive on a goroutine of its own.
func drain[E any](s eventStream[E], each func(E)) { go receive(s, each) }
