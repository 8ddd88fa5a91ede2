package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
)

// request exercises every kind of field the decoder supports.
type request struct {
	URL     string            `json:"url" required:"true"`
	Tab     string            `json:"tab,omitempty"`
	Timeout int               `json:"timeoutMs"`
	Small   int8              `json:"small"`
	Count   uint16            `json:"count"`
	Ratio   float32           `json:"ratio"`
	Flag    bool              `json:"flag"`
	Env     map[string]string `json:"env"`
	Args    []string          `json:"args"`
	Steps   []step            `json:"steps"`
	Next    *request          `json:"next"`
	Raw     json.RawMessage   `json:"raw"`
	Pair    [2]int            `json:"pair"`
	Data    []byte            `json:"data"`
	Num     json.Number       `json:"num"`
	Level   level             `json:"level"`
	Stamp   *stamp            `json:"stamp"`
	Hidden  string            `json:"-"`
	NoTag   string
	private string //lint:ignore U1000 the decoder must leave an unexported field alone: it is here to be ignored
}

type step struct {
	Name  string   `json:"name" required:"true"`
	Delay *float64 `json:"delay"`
}

// secret is a union, `"literal"` or {"env":"NAME"}, that checks itself strictly.
type secret struct {
	Literal string
	Env     string
}

func (s *secret) UnmarshalStrictJSON(raw []byte, path string) error {
	if len(raw) > 0 && raw[0] == '"' {
		return DecodeAt(raw, &s.Literal, path)
	}
	if string(raw) == "null" {
		return errors.New("a secret cannot be null")
	}
	var ref struct {
		Env string `json:"env" required:"true"`
	}
	if err := DecodeAt(raw, &ref, path); err != nil {
		return err
	}
	s.Env = ref.Env
	return nil
}

type login struct {
	User     string  `json:"user"`
	Password secret  `json:"password" required:"true"`
	Backup   *secret `json:"backup"`
	Other    secret  `json:"other"`
}

// stamp is a json.Unmarshaler whose errors quote the input, as time.Time's do.
type stamp struct{ Value string }

func (s *stamp) UnmarshalJSON(raw []byte) error {
	if len(raw) < 2 || raw[0] != '"' {
		return fmt.Errorf("stamp: cannot parse %s", raw)
	}
	s.Value = string(raw[1 : len(raw)-1])
	if s.Value == "bad" || s.Value == "hunter2" {
		return fmt.Errorf("stamp: cannot parse %q", s.Value)
	}
	return nil
}

// level is an encoding.TextUnmarshaler.
type level int

func (l *level) UnmarshalText(text []byte) error {
	switch string(text) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return fmt.Errorf("unknown level %q", text)
	}
	return nil
}

// The brief's shadowing case: outer's "tab" (an object) hides inner's "tab" (a string).
type inner struct {
	Tab string `json:"tab,omitempty"`
	URL string `json:"url" required:"true"`
}

type outer struct {
	Tab *struct {
		Source string `json:"source"`
	} `json:"tab,omitempty"`
	inner
}

// A hidden field's required tag must not apply either.
type hiddenRequired struct {
	ID string `json:"id" required:"true"`
}

type hidesRequired struct {
	ID int `json:"id"`
	hiddenRequired
}

// Two equal candidates at the same depth hide each other, as in encoding/json.
type left struct{ Name string }
type right struct{ Name string }
type ambiguous struct {
	left
	right
	Other string `json:"other"`
}

// A tagged field beats an untagged one at the same depth.
type untaggedName struct{ Name string }
type taggedName struct {
	Title string `json:"Name"`
}
type tagged struct {
	untaggedName
	taggedName
}

// Embedded through a pointer, exported and unexported.
type Base struct {
	Kind string `json:"kind" required:"true"`
}
type viaPointer struct {
	*Base
	Extra string `json:"extra"`
}
type viaUnexportedPointer struct {
	*hiddenRequired
}

type untyped struct {
	Value any `json:"value"`
}

type quoted struct {
	N int `json:"n,string"`
}

type deep struct {
	Next *deep `json:"next"`
}

type ints struct {
	I   int     `json:"i"`
	I8  int8    `json:"i8"`
	I64 int64   `json:"i64"`
	U   uint    `json:"u"`
	U8  uint8   `json:"u8"`
	U64 uint64  `json:"u64"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
}

type intKeys struct {
	M map[int]string `json:"m"`
}
