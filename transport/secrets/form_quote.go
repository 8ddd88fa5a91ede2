package secrets

import "strconv"

// quotedForms are v inside Go's quoting, without the quotes: the worker's outline quotes
// every name, text and option with strconv.Quote, and its error messages use %q (the same
// function). Both write `"` and `\` escaped and non-printable characters as \t, \x01 or
// \u00a0; strconv.QuoteToASCII (%+q) also writes every non-ASCII character as \u or \U.
func quotedForms(v string) []string {
	return []string{unquoted(strconv.Quote(v)), unquoted(strconv.QuoteToASCII(v))}
}

// unquoted drops the surrounding quotes of a quoted string.
func unquoted(q string) string { return q[1 : len(q)-1] }
