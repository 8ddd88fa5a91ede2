package scenario

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Location is where an operation's entry is written: the file (as reached from the
// scenario's path, a fragment's for an included operation) and the 1-based line and column
// of the entry's "{" in its file's "operations" array. The column counts characters (a tab
// is one), as editors and Playwright's "path:line:column" do.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// String is "path:line:column", what an editor or a terminal opens.
func (l Location) String() string {
	return l.File + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Column)
}

// sourceText is one file's bytes as read, kept (shared by its operations) so that a failed
// operation's code frame can be cut from it after the run.
type sourceText struct {
	display string
	data    []byte
}

// opSource is where one operation is written: its file and the byte offset of its "{".
type opSource struct {
	text   *sourceText
	offset int
}

// location is the operation's Location (nil: not known, e.g. an operation built in code).
func (s *opSource) location() *Location {
	if s == nil || s.text == nil {
		return nil
	}
	line, col := lineCol(s.text.data, s.offset)
	return &Location{File: s.text.display, Line: line, Column: col}
}

// codeFrame is the lines around the operation's entry (codeframe.go).
func (s *opSource) codeFrame() string {
	if s == nil || s.text == nil {
		return ""
	}
	line, col := lineCol(s.text.data, s.offset)
	return CodeFrame(s.text.data, line, col)
}

// entryOffsets returns the byte offset of each entry of the top-level "operations" array
// in data, in order. It scans the file's bytes as read — before anything (a {"var"}
// substitution) rewrites them — so that offsets are the file's own. nil when data is not an
// object with such an array (the strict decode refuses that file anyway).
func entryOffsets(data []byte) []int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "operations" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil
		}
		var offsets []int
		for dec.More() {
			// InputOffset is the end of the last token or value; the entry starts after the
			// whitespace and comma that follow it.
			at := int(dec.InputOffset())
			for at < len(data) && (data[at] == ',' || data[at] == ' ' || data[at] == '\t' || data[at] == '\n' || data[at] == '\r') {
				at++
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			offsets = append(offsets, at)
		}
		return offsets
	}
	return nil
}

// sourcesOf maps the n entries of a file's operations to where each is written (nil
// entries when the scan does not find n of them).
func sourcesOf(display string, data []byte, n int) []opSource {
	offsets := entryOffsets(data)
	if len(offsets) != n {
		return nil
	}
	text := &sourceText{display: display, data: data}
	out := make([]opSource, n)
	for i, off := range offsets {
		out[i] = opSource{text: text, offset: off}
	}
	return out
}

// lineCol is the 1-based line and character column of byte offset off in data.
func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return bytes.Count(data[:off], []byte{'\n'}) + 1, utf8.RuneCount(data[start:off]) + 1
}
