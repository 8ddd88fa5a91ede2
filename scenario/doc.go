// Package scenario owns scenario file v1 (parse, strict validation with JSON paths, tab
// references), fixture servers (managed and external, readiness), hooks, the runner that
// executes one scenario's operations through a runtime.Runtime, and report v1.
//
// It never starts a shell, never interpolates strings, and resolves relative URLs only
// against fixture.baseUrl.
package scenario
