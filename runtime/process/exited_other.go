//go:build !linux

package process

// Exited reports whether the child has been reaped (outside Linux there is no /proc to see
// it end sooner).
func (p *Process) Exited() bool { return p.reaped() }
