// Package reportview turns a report v1 (scenario.Report) into something a person reads: one
// self-contained, offline HTML page (HTML, WriteHTMLFile) and a short terminal summary
// (Text).
//
// It owns how failure evidence is shown, and the rules for reading it back from the
// artifacts directory: a file is embedded only when its path is a clean relative path with no
// symlink on the way, and its size and SHA-256 match the artifact metadata in the report.
// Anything else is shown as "evidence file unavailable", never guessed at. The page loads
// nothing: no scripts, no external assets, and a CSP that allows only inline styles and data:
// images, so opening it cannot make a request.
package reportview
