// Package secrets owns the masking of secret values in everything fastbrowser lets out.
//
// A secret is a value read from an environment variable and typed into a page. Its value
// lives only in memory, in a Set. Every text that leaves the program — results, page text
// read back, console messages, errors, JSON reports, JUnit XML, HTML reports, stdout and
// stderr — is passed through Set.Scrub, Set.ScrubBytes or a Set.Writer first, which replace
// the secret with Mask.
//
// A secret can leave in more spellings than its raw bytes: a page may URL-encode it,
// base64 or base64url it (HTTP basic auth, a JWT) or re-space it; a server or hook may log
// it in hex or UTF-16 (\uXXXX escapes or raw UTF-16LE/BE bytes); the outline and error
// messages Go-quote it; and reports write each of those JSON-, HTML- or XML-escaped. Add
// registers the raw value and each of those spellings ("forms", see forms.go), so one
// registration covers them all. ScrubJSON also scrubs each string of a JSON document
// decoded, for text that was escaped once before it was put in JSON.
//
// Scrub runs on every output, so it searches once for what forms beginning alike share
// (table.go) rather than once per form.
//
// Masking is by span, not by sequential replacement: every occurrence of every form is
// found, overlapping occurrences are merged, and each merged span becomes one Mask. So no
// tail of a secret survives because a different, overlapping form matched first.
//
// The package refuses values that are too short to mask safely (ErrTooShort) and never
// puts a value in an error message.
package secrets
