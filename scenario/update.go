package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"

	"github.com/tidwall/gjson"
)

// `run --update` (as Playwright's --update-snapshots): each act with words that healed has
// its new recording written back into the file its entry is written in — the scenario file,
// or the fragment an include brought it from — in place: only the bytes of the entry's
// "request" value change (and its "replayIf" is dropped of the variables the new recording
// now follows), so the rest of the file keeps its formatting. Each file is written
// atomically with its own mode.

// UpdateResult is what --update did to one file.
type UpdateResult struct {
	File       string
	Recordings int   // how many entries were rewritten
	Err        error // the file was left as it was
}

// UpdateHealed writes the healed recordings of rep into their files. Operations that healed
// without a replayable recording (Healed.Recording absent) are left out; a file is written
// once, with all of its entries.
func UpdateHealed(rep *Report) []UpdateResult {
	type edit struct {
		index int
		h     *Healed
	}
	byFile := map[string][]edit{}
	seen := map[string]bool{}
	for si := range rep.Scenarios {
		for oi := range rep.Scenarios[si].Operations {
			h := rep.Scenarios[si].Operations[oi].Healed
			if h == nil || h.Recording == nil || h.file == "" {
				continue
			}
			key := h.file + "\x00" + strconv.Itoa(h.at)
			if seen[key] { // the same entry healed twice (projects, included twice): once
				continue
			}
			seen[key] = true
			byFile[h.file] = append(byFile[h.file], edit{h.at, h})
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []UpdateResult
	for _, f := range files {
		res := UpdateResult{File: f, Recordings: len(byFile[f])}
		res.Err = func() error {
			data, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("%s: not updated: %v", f, err)
			}
			var splices []splice
			for _, e := range byFile[f] {
				s, err := recordingSplices(data, e.index, e.h)
				if err != nil {
					return fmt.Errorf("%s: operations[%d] not updated: %v", f, e.index, err)
				}
				splices = append(splices, s...)
			}
			return writeInPlace(f, applySplices(data, splices))
		}()
		out = append(out, res)
	}
	return out
}

// splice replaces data[start:end] with text.
type splice struct {
	start, end int
	text       []byte
}

// applySplices applies non-overlapping splices, last first so earlier offsets stay valid.
func applySplices(data []byte, ss []splice) []byte {
	sort.Slice(ss, func(i, j int) bool { return ss[i].start > ss[j].start })
	out := append([]byte(nil), data...)
	for _, s := range ss {
		out = append(out[:s.start], append(append([]byte(nil), s.text...), out[s.end:]...)...)
	}
	return out
}

// recordingSplices are the edits that put h's recording into operations[index] of data.
func recordingSplices(data []byte, index int, h *Healed) ([]splice, error) {
	at := "operations." + strconv.Itoa(index)
	entry := gjson.GetBytes(data, at)
	if !entry.IsObject() || !rawAt(data, entry) {
		return nil, fmt.Errorf("the file no longer has that entry (was it edited since the run?)")
	}
	rec, err := writtenRecording(data, at, h.Recording)
	if err != nil {
		return nil, err
	}
	var out []splice
	if req := gjson.GetBytes(data, at+".request"); req.Exists() {
		if !rawAt(data, req) {
			return nil, fmt.Errorf("its request could not be located in the file")
		}
		out = append(out, splice{req.Index, req.Index + len(req.Raw), rec})
	} else {
		// A words-only act gets its first recording as the entry's first member.
		open := entry.Index + 1
		out = append(out, splice{open, open, append(append([]byte(`"request": `), rec...), ", "...)})
	}
	if ri := gjson.GetBytes(data, at+".replayIf"); ri.Exists() && rawAt(data, ri) {
		var keep []json.RawMessage
		for _, c := range ri.Array() {
			if !slices.Contains(h.uses, c.Get("variable").String()) {
				keep = append(keep, json.RawMessage(c.Raw))
			}
		}
		if len(keep) != len(ri.Array()) {
			text := []byte("[" + string(bytes.Join(rawsOf(keep), []byte(", "))) + "]")
			out = append(out, splice{ri.Index, ri.Index + len(ri.Raw), text})
		}
	}
	return out, nil
}

func rawsOf(list []json.RawMessage) [][]byte {
	out := make([][]byte, len(list))
	for i, r := range list {
		out[i] = r
	}
	return out
}

// rawAt says whether r's Raw is the bytes of data at r.Index (gjson leaves Index 0 when it
// cannot tell).
func rawAt(data []byte, r gjson.Result) bool {
	return r.Index > 0 && r.Index+len(r.Raw) <= len(data) && string(data[r.Index:r.Index+len(r.Raw)]) == r.Raw
}

// writtenRecording is the recording as the file writes it: a text {"var": "name"} (a
// literal variable of the act) becomes that variable's value as the entry writes it —
// {"var": …} of the file's variables, or the literal itself — so the file keeps reading
// its values where it did.
func writtenRecording(data []byte, at string, rec json.RawMessage) ([]byte, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(rec, &req); err != nil {
		return nil, err
	}
	var ref struct {
		Var string `json:"var"`
	}
	if t, ok := req["text"]; ok && json.Unmarshal(t, &ref) == nil && ref.Var != "" {
		v := gjson.GetBytes(data, at+".variables."+gjsonEscape(ref.Var))
		if !v.Exists() {
			return nil, fmt.Errorf("its variable %q is not in the file", ref.Var)
		}
		req["text"] = json.RawMessage(v.Raw)
	}
	var target map[string]json.RawMessage
	if json.Unmarshal(req["target"], &target) == nil && target != nil {
		// The order a person writes a target in: role, name, exact.
		t, err := orderedObject(target, []string{"role", "name", "exact"})
		if err != nil {
			return nil, err
		}
		req["target"] = t
	}
	// The order a person writes an act in: action, target, then its value.
	return orderedObject(req, []string{"action", "target", "text", "option", "key"})
}

// orderedObject writes the members of m named in keys, in that order, as `{"k": v, …}`
// (HTML characters unescaped, as a person writes them).
func orderedObject(m map[string]json.RawMessage, keys []string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	n := 0
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			continue
		}
		if n > 0 {
			buf.WriteString(", ")
		}
		n++
		fmt.Fprintf(&buf, "%q: ", k)
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			return nil, err
		}
		if obj, isObj := val.(map[string]any); isObj && len(obj) > 0 {
			buf.Write(v) // already written in order (or the file's own bytes)
			continue
		}
		if err := enc.Encode(val); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// gjsonEscape escapes a variable name for a gjson path (names are [A-Za-z0-9_]: nothing to
// escape, but a path never trusts that).
func gjsonEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '.', '*', '?', '|', '#', '@', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeInPlace writes data to path atomically (a temporary file beside it, then a rename),
// keeping the file's mode.
func writeInPlace(path string, data []byte) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return writeAtomic(path, data, fi.Mode().Perm())
}
