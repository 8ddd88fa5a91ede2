package chromium

// Exited reports whether the browser process has ended (killed, crashed or exited), also
// just before it is reaped.
func (b *Browser) Exited() bool { return b.proc.Exited() }

// ExitStatus says how the browser process ended ("signal killed", "exit 0"); "" until it
// has been reaped.
func (b *Browser) ExitStatus() string {
	select {
	case <-b.Done():
		return exitStatus(b.proc)
	default:
		return ""
	}
}
