// Package runtimetest is test support for packages that drive a real Chromium: it builds
// the fastbrowser binary once per test process, shares one browser per test package, serves
// the fixture site and a hit-counting canary, and finds leaked processes and profiles.
// Nothing in it is a stand-in for the browser.
package runtimetest
