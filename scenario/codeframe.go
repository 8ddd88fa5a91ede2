package scenario

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Code frame shape: the lines around an operation's entry, as Playwright's (Babel's) code
// frame shows a failing test's line.
const (
	frameBefore    = 2   // lines shown before the entry's line
	frameAfter     = 3   // and after it
	frameLineChars = 160 // a longer line is clipped, ending in "…"
	frameTab       = "    "
)

// CodeFrame renders the lines of data around line (1-based), each prefixed with its number,
// the line itself marked ">" and a caret line under column (1-based, in characters):
//
//	  10 |   "operations": [
//	  11 |     { "op": "navigate", "request": { "url": "/" } },
//	> 12 |     {
//	     |     ^
//	  13 |       "op": "assert",
//
// A tab is shown as frameTab spaces (the caret counts it so), so the frame holds no control
// character a terminal or a report would mangle. "" when line is not in data.
func CodeFrame(data []byte, line, column int) string {
	lines := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'}) // a final newline ends the last line
	if line < 1 || line > len(lines) {
		return ""
	}
	from, to := max(1, line-frameBefore), min(len(lines), line+frameAfter)
	width := len(fmt.Sprint(to))
	var b strings.Builder
	for n := from; n <= to; n++ {
		raw := strings.TrimRight(string(lines[n-1]), " \t\r")
		text := clipFrameLine(printable(strings.ReplaceAll(raw, "\t", frameTab)))
		mark := "  "
		if n == line {
			mark = "> "
		}
		fmt.Fprintf(&b, "%s%*d |", mark, width, n)
		if text != "" {
			b.WriteString(" " + text)
		}
		b.WriteByte('\n')
		if n == line {
			fmt.Fprintf(&b, "  %*s | %s^\n", width, "", caretIndent(raw, column))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// clipFrameLine bounds one shown line to frameLineChars characters.
func clipFrameLine(s string) string {
	if utf8.RuneCountInString(s) <= frameLineChars {
		return s
	}
	return string([]rune(s)[:frameLineChars-1]) + "…"
}

// caretIndent is the blank before the caret under column of raw (the line before tabs are
// expanded): a space per character before it, frameTab per tab, never past the shown
// (clipped) line.
func caretIndent(raw string, column int) string {
	var b strings.Builder
	k := 1
	for _, r := range raw {
		if k >= column || k >= frameLineChars {
			break
		}
		if r == '\t' {
			b.WriteString(frameTab)
		} else {
			b.WriteByte(' ')
		}
		k++
	}
	return b.String()
}

// printable replaces what a terminal would act on (a stray carriage return between JSON
// tokens, any other control character) with a space.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}
