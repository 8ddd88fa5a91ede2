package scenario

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/names"
)

// Fragment is a fragment file: operations a scenario includes with
// {"include":"fragments/login.json","id"?:"login"} (docs/scenarios.md "Fragments"). It is data
// only, decoded as strictly as a scenario file.
type Fragment struct {
	Schema      string      `json:"$schema,omitempty"` // for editors; not interpreted
	Version     int         `json:"version" required:"true"`
	Fragment    string      `json:"fragment" required:"true"` // its name: the default id prefix
	Description string      `json:"description,omitempty"`
	Operations  []Operation `json:"operations" required:"true"`
}

// FragmentRef is one fragment file a scenario included, in include order.
type FragmentRef struct {
	File   string `json:"file"` // as reached from the scenario's path
	SHA256 string `json:"sha256"`
}

// includeHop is one include entry on the way from the scenario file to an operation.
type includeHop struct {
	entry string // the entry's field path in its file: operations[3].include
	file  string // the fragment it names, as reached from the scenario's path
}

// refScope is how an operation's references resolve: ids and indexes as written in its own
// file, mapped to the expanded scenario. An id the file does not define is looked up in the
// including file (so a fragment may use a tab the scenario opened earlier).
type refScope struct {
	ids    map[string]string // id as written here (own ids, and "prefix.id" of nested fragments) → final id
	index  []int             // entry index here → expanded index (-1: an include entry)
	parent *refScope
}

func (s *refScope) id(id string) string {
	for ; s != nil; s = s.parent {
		if final, ok := s.ids[id]; ok {
			return final
		}
	}
	return id
}

// rewrite maps a reference written in the operation's own file to the expanded scenario.
// A reference with both id and index is left for checkOpRef to refuse.
func (s *refScope) rewrite(o *OpRef, path string) error {
	if s == nil {
		return nil
	}
	switch {
	case o.ID != "" && o.Index == nil:
		o.ID = s.id(o.ID)
	case o.ID == "" && o.Index != nil:
		j, n := *o.Index, -1 // -1: "no operation at that index"
		if j >= 0 && j < len(s.index) {
			if n = s.index[j]; n < 0 {
				return fail(path+".index", fmt.Sprintf("operations[%d] is an include entry; name one of its operations by its prefixed id", j))
			}
		}
		o.Index = &n
	}
	return nil
}

// source is the file being expanded: its path as reached from the scenario's path (for
// messages), and its absolute directory (relative includes and uploads resolve against it).
type source struct {
	display string
	dir     string
	// written is where each of the file's operations entries is (oplocation.go), by entry
	// index; nil when not known.
	written []opSource
}

func sourceOf(path string) source { return source{display: path, dir: dirOf(path)} }

// expander replaces include entries with their fragments' operations, depth first.
type expander struct {
	chain     []string // absolute paths of the files being expanded, outermost first
	fragments []FragmentRef
	digests   [][sha256.Size]byte
	vars      *varScope // the scenario's: a fragment's {"var"} values take the including run's
}

// expand returns ops with every include entry replaced, ids prefixed (prefix is "" for the
// scenario file, "login." for a fragment included as login) and each operation's scope set,
// plus the ids this list defines by the names it may use for them. start is where the list
// begins in the expanded scenario (index references map to positions there).
func (x *expander) expand(ops []Operation, src source, prefix string, parent *refScope, start int) ([]Operation, map[string]string, error) {
	scope := &refScope{ids: map[string]string{}, index: make([]int, len(ops)), parent: parent}
	var out []Operation
	for k, entry := range ops {
		path := "operations[" + strconv.Itoa(k) + "]"
		if entry.Include == "" {
			entry.at, entry.scope, entry.dir = k, scope, src.dir
			if k < len(src.written) {
				entry.written = &src.written[k]
			}
			if entry.ID != "" {
				scope.ids[entry.ID] = prefix + entry.ID
				entry.ID = prefix + entry.ID
			}
			scope.index[k] = start + len(out)
			out = append(out, entry)
			continue
		}
		scope.index[k] = -1
		name, frag, err := x.include(&entry, path, src, prefix, scope, start+len(out))
		if err != nil {
			return nil, nil, err
		}
		for local, final := range frag.ids {
			scope.ids[name+"."+local] = final
		}
		for _, op := range frag.ops {
			op.from = append([]includeHop{{entry: path + ".include", file: frag.display}}, op.from...)
			out = append(out, op)
		}
		if start+len(out) > budgets.ScenarioOps {
			return nil, nil, fail(path+".include", fmt.Sprintf("more than %d operations with the fragment's", budgets.ScenarioOps))
		}
	}
	return out, scope.ids, nil
}

type expanded struct {
	display string
	ops     []Operation
	ids     map[string]string
}

// include loads, checks and expands the fragment one entry names; it returns the prefix
// name and the fragment's expanded operations.
func (x *expander) include(entry *Operation, path string, src source, prefix string, scope *refScope, start int) (string, *expanded, error) {
	if entry.Op != "" || len(entry.Request) > 0 || len(entry.Step) > 0 || entry.Context != nil || entry.TimeoutMs != 0 || entry.Soft || entry.When != nil || entry.Words != "" || entry.Variables != nil || entry.ReplayIf != nil {
		return "", nil, fail(path, `an include entry has only "include" and "id"`)
	}
	if entry.ID != "" && !names.IDShaped(entry.ID) {
		return "", nil, fail(path+".id", "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
	}
	path += ".include"
	abs, display := filepath.Clean(resolveIn(src.dir, entry.Include)), entry.Include
	if !filepath.IsAbs(display) {
		display = filepath.Join(filepath.Dir(src.display), entry.Include)
	}
	for i, p := range x.chain {
		if p == abs {
			names := []string{}
			for _, q := range x.chain[i:] {
				names = append(names, filepath.Base(q))
			}
			return "", nil, fail(path, "include cycle: "+strings.Join(append(names, filepath.Base(abs)), " → ")+" (a fragment cannot include itself, directly or through others)")
		}
	}
	if len(x.chain) > budgets.IncludeDepth {
		return "", nil, fail(path, fmt.Sprintf("includes nest more than %d levels deep", budgets.IncludeDepth))
	}
	data, err := readBounded(abs, "fragment file")
	if err != nil {
		return "", nil, fail(path, display+": "+err.Error())
	}
	sum := sha256.Sum256(data) // of the bytes as written, like the scenario's
	written := data            // locations are of the bytes as written, not the substituted ones
	if data, err = substituteVars(data, x.vars); err != nil {
		return "", nil, inFragment(path, display, err)
	}
	var f Fragment
	if err := decodeFragment(data, &f); err != nil {
		return "", nil, inFragment(path, display, err)
	}
	name := entry.ID
	if name == "" {
		name = f.Fragment
	}
	// Listed (and hashed) in include order: this fragment before those it includes.
	x.fragments = append(x.fragments, FragmentRef{File: display, SHA256: fmt.Sprintf("%x", sum)})
	x.digests = append(x.digests, sum)
	x.chain = append(x.chain, abs)
	fsrc := source{display: display, dir: filepath.Dir(abs), written: sourcesOf(display, written, len(f.Operations))}
	ops, ids, err := x.expand(f.Operations, fsrc, prefix+name+".", scope, start)
	x.chain = x.chain[:len(x.chain)-1]
	if err != nil {
		return "", nil, inFragment(path, display, err)
	}
	return name, &expanded{display: display, ops: ops, ids: ids}, nil
}

// decodeFragment decodes and checks a fragment file's own fields (its operations are
// checked with the scenario's, after expansion).
func decodeFragment(data []byte, f *Fragment) error {
	if err := decodeVersioned(data, f, &f.Version); err != nil {
		return err
	}
	if !names.IDShaped(f.Fragment) {
		return fail("fragment", "expected a name of 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-' (the default id prefix)")
	}
	if len(f.Operations) == 0 {
		return fail("operations", "expected at least one operation")
	}
	return nil
}

// inFragment places a refusal inside fragment display at the including entry's path:
// `operations[3].include: fragments/login.json: operations[1].request.url: …`.
func inFragment(path, display string, err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	inner := ve.Path
	if inner == "" {
		inner = "(root)"
	}
	return &ValidationError{Path: path, Code: ve.Code, Message: display + ": " + inner + ": " + ve.Message}
}

// relocate turns a refusal of an expanded operation (its path starts "operations[i]", the
// expanded index) into one at the path it was written at: its index in the scenario file,
// or the include entry of the scenario file that brought it in, naming each fragment on the
// way and the field path inside the last.
func relocate(op *Operation, i int, err error) error {
	var ve *ValidationError
	if (len(op.from) == 0 && op.at == i) || !errors.As(err, &ve) {
		return err
	}
	rest := strings.TrimPrefix(ve.Path, "operations["+strconv.Itoa(i)+"]")
	out := &ValidationError{File: ve.File, Path: "operations[" + strconv.Itoa(op.at) + "]" + rest, Code: ve.Code, Message: ve.Message}
	for h := len(op.from) - 1; h >= 0; h-- {
		wrapped := inFragment(op.from[h].entry, op.from[h].file, out).(*ValidationError)
		wrapped.File = ve.File
		out = wrapped
	}
	return out
}

// combinedDigest is a scenario's sha256 when it includes fragments: the SHA-256 of the
// file's own SHA-256 followed by each fragment's in include order (raw digests), so that an
// edit of any file that ran changes it. Without includes it is the file's own SHA-256.
func combinedDigest(file [sha256.Size]byte, fragments [][sha256.Size]byte) [sha256.Size]byte {
	if len(fragments) == 0 {
		return file
	}
	h := sha256.New()
	h.Write(file[:])
	for _, d := range fragments {
		h.Write(d[:])
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// where names the fragment an operation came from, for messages that point at it by its
// expanded index ("" for an operation of the scenario file itself).
func (op *Operation) where() string {
	if len(op.from) == 0 {
		return ""
	}
	return " (from " + op.from[len(op.from)-1].file + ")"
}

// IsFragmentFile is IsFragment of the file at path, read within the scenario file size (a
// larger file is not a fragment: loaded as a scenario, it is refused as too large).
func IsFragmentFile(path string) bool {
	data, err := readBounded(path, "file")
	return err == nil && IsFragment(data)
}

// IsFragment says whether data looks like a fragment file (an object with "fragment" and no
// "id"), so that a directory of scenarios can hold its fragments: `run DIR` skips them.
func IsFragment(data []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	_, frag := probe["fragment"]
	_, id := probe["id"]
	return frag && !id
}
