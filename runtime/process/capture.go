package process

import "sync"

// Capture keeps a bounded copy of a child's output in memory: the first head bytes and the
// last tail bytes it was given, and how many bytes it was given in all. Memory stays at
// head+tail however much the child writes. It is an io.Writer that never fails and never
// waits on anything but its own mutex (a copy of at most head+tail bytes), so it is safe as
// Spec.Capture, written from the drain goroutines. Safe for concurrent use.
type Capture struct {
	mu      sync.Mutex
	headMax int
	head    []byte
	tail    []byte // ring of capacity tailMax once the head is full
	tailMax int
	next    int  // where the ring writes next
	wrapped bool // the ring has been filled at least once
	total   int64
}

// NewCapture returns a capture keeping the first head and the last tail bytes (each >= 0).
func NewCapture(head, tail int) *Capture {
	return &Capture{headMax: max(head, 0), tailMax: max(tail, 0)}
}

// Write keeps what fits in the head and the rest in the tail ring. It always consumes p.
func (c *Capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.total += int64(n)
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || c.tailMax == 0 {
		return n, nil
	}
	if c.tail == nil {
		c.tail = make([]byte, c.tailMax)
	}
	if len(p) >= c.tailMax {
		copy(c.tail, p[len(p)-c.tailMax:])
		c.next, c.wrapped = 0, true
		return n, nil
	}
	k := copy(c.tail[c.next:], p)
	if k < len(p) {
		copy(c.tail, p[k:])
		c.wrapped = true
	}
	c.next = (c.next + len(p)) % c.tailMax
	if c.next == 0 {
		c.wrapped = true
	}
	return n, nil
}

// Snapshot returns copies of the kept head and tail and the total written. The bytes
// between them, total-len(head)-len(tail) of them, are gone; when that is 0, head followed
// by tail is everything the capture was given.
func (c *Capture) Snapshot() (head, tail []byte, total int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	head = append([]byte(nil), c.head...)
	if c.wrapped {
		tail = make([]byte, 0, c.tailMax)
		tail = append(tail, c.tail[c.next:]...)
		tail = append(tail, c.tail[:c.next]...)
	} else if c.tail != nil {
		tail = append([]byte(nil), c.tail[:c.next]...)
	}
	return head, tail, c.total
}

// Total is how many bytes the capture was given.
func (c *Capture) Total() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
