package strictjson

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// field is one struct field visible to JSON.
type field struct {
	name     string       // the JSON key, matched exactly
	index    []int        // reflect index sequence, through embedded structs
	typ      reflect.Type // the field's declared type
	tagged   bool         // name came from a json tag
	required bool         // `required:"true"`
	quoted   bool         // the ",string" option applies (refused: no protocol field uses it)
}

// structInfo is the JSON view of one struct type.
type structInfo struct {
	fields   []field // visible fields, in declaration order
	byName   map[string]int
	required int    // how many fields are required
	expected string // "one of the fields: url, tab", for unknown-field errors
}

func (si *structInfo) lookup(key string) (*field, bool) {
	i, ok := si.byName[key]
	if !ok {
		return nil, false
	}
	return &si.fields[i], true
}

var structCache sync.Map // reflect.Type -> *structInfo

func structInfoOf(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si, _ := structCache.LoadOrStore(t, newStructInfo(t))
	return si.(*structInfo)
}

// newStructInfo decides which fields of t are visible, by encoding/json's rules
// (typeFields in encoding/json/encode.go), so that the fill can hand valid input to the
// same fields encoding/json would: fields of embedded structs are promoted, a shallower
// field hides deeper ones of the same name, a tagged field beats an untagged one at the
// same depth, and two equal candidates hide each other.
func newStructInfo(t reflect.Type) *structInfo {
	var fields []field
	current, next := []field{}, []field{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(f.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					nf := field{
						name:     name,
						index:    index,
						typ:      sf.Type,
						tagged:   name != "",
						required: sf.Tag.Get("required") == "true",
						quoted:   hasOption(opts, "string") && quotable(ft.Kind()),
					}
					if nf.name == "" {
						nf.name = sf.Name
					}
					fields = append(fields, nf)
					if count[f.typ] > 1 {
						// The same struct embedded twice at one depth: a second copy
						// makes the dominance step below drop both, as encoding/json does.
						fields = append(fields, nf)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, field{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	fields = dominantFields(fields)
	si := &structInfo{fields: fields, byName: make(map[string]int, len(fields))}
	names := make([]string, len(fields))
	for i, f := range fields {
		si.byName[f.name] = i
		names[i] = f.name
		if f.required {
			si.required++
		}
	}
	if len(names) == 0 {
		si.expected = "an empty object (no fields)"
	} else {
		si.expected = "one of the fields: " + strings.Join(names, ", ")
	}
	return si
}

// dominantFields keeps, for each name, the one field Go's embedding rules (amended by
// JSON tags) let through, and returns them in declaration order.
func dominantFields(fields []field) []field {
	slices.SortFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		// Sorted by depth then tag, the first is dominant unless the second ties with it.
		if j-i == 1 || len(fields[i].index) != len(fields[i+1].index) || fields[i].tagged != fields[i+1].tagged {
			out = append(out, fields[i])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out
}

// validTagName is encoding/json's isValidTag: a tag name it would ignore must be
// ignored here too, or the two would disagree on the field's key.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

func quotable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}
