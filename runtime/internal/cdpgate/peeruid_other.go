//go:build !linux

package cdpgate

import "net/http"

// sameUser: without /proc/net/tcp the token alone guards the endpoint.
func sameUser(*http.Request) bool { return true }
