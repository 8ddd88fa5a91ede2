package modeltest

// Script appends steps to the script, for a test that learns what to answer (the page's
// refs) only after the server had to exist (its URL configures the session).
func (s *Server) Script(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}
