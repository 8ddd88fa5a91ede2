package transport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

var compiledProtocolSchema = sync.OnceValues(func() (*jsonschema.Compiler, error) {
	data, err := ProtocolSchema()
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(ProtocolSchemaID, doc); err != nil {
		return nil, err
	}
	return c, nil
})

// protocolSchemaAt compiles the protocol schema, or one of its $defs (def "" is the root).
func protocolSchemaAt(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	c, err := compiledProtocolSchema()
	if err != nil {
		t.Fatal(err)
	}
	loc := ProtocolSchemaID
	if def != "" {
		loc += "#/$defs/" + def
	}
	sch, err := c.Compile(loc)
	if err != nil {
		t.Fatalf("compile %s: %v", loc, err)
	}
	return sch
}

func validateJSON(t *testing.T, sch *jsonschema.Schema, data string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %s: %v", data, err)
	}
	return sch.Validate(inst)
}

// TestProtocolSchemaCompiles: the generated schema is a valid draft 2020-12 schema and
// compiles, every $defs entry included.
func TestProtocolSchemaCompiles(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	meta, err := c.Compile("https://json-schema.org/draft/2020-12/schema")
	if err != nil {
		t.Fatal(err)
	}
	data, err := ProtocolSchema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := meta.Validate(doc); err != nil {
		t.Fatalf("not a valid draft 2020-12 schema: %v", err)
	}
	for def := range doc.(map[string]any)["$defs"].(map[string]any) {
		protocolSchemaAt(t, def)
	}
}

// TestProtocolSchemaHasEveryOperation: each row of the operation table has its request and
// result definition, and the request frame's op list is the table's.
func TestProtocolSchemaHasEveryOperation(t *testing.T) {
	root, err := protocolSchema(Ops())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range Ops() {
		names = append(names, s.Name)
		for _, def := range []string{s.Name + ".request", s.Name + ".result"} {
			if n := root.Defs[def]; n == nil || n.Ref == "" || root.Defs[strings.TrimPrefix(n.Ref, "#/$defs/")] == nil {
				t.Errorf("%s: no definition", def)
			}
		}
	}
	if got := root.Defs["frame.request"].Properties.get("op").Enum; !slices.Equal(got, names) {
		t.Errorf("request frame ops %v, table %v", got, names)
	}
}

// probeRequest and probeResult stand for an operation added to the table later.
type probeRequest struct {
	op[probeRequest, probeResult]
	Session string   `json:"session" required:"true"`
	Actions []Target `json:"actions,omitempty"`
}

//lint:ignore U1000 probeRequest's op[probeRequest, probeResult] names it; staticcheck does not count a type argument as a use
type probeResult struct {
	Egress
	Session string `json:"session"`
	Skipped *int   `json:"skipped,omitempty"`
}

func (probeRequest) Validate() error { return nil }

// TestProtocolSchemaTakesNewOperations: a row added to the table gets its request and result
// definitions, and request frames naming it are checked against them, with no code for it.
func TestProtocolSchemaTakesNewOperations(t *testing.T) {
	root, err := protocolSchema(append(Ops(), OpSpec{Name: "probe", New: newOp[probeRequest]}))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(root)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ProtocolSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(ProtocolSchemaID)
	if err != nil {
		t.Fatal(err)
	}
	for frame, valid := range map[string]bool{
		`{"v":1,"id":"1","op":"probe","request":{"session":"s","actions":[{"ref":"e1"}]}}`: true,
		`{"v":1,"id":"1","op":"probe","request":{"actions":[]}}`:                           false, // session required
		`{"v":1,"id":"1","op":"probe","request":{"session":"s","actions":[{"bogus":1}]}}`:  false,
		`{"v":1,"id":"1","result":{"session":"s","skipped":2},"posture":"ok"}`:             true,
	} {
		if err := validateJSON(t, sch, frame); (err == nil) != valid {
			t.Errorf("%s: valid %v, want %v (%v)", frame, err == nil, valid, err)
		}
	}
	if n := root.Defs["probeRequest"]; n == nil || !slices.Equal(n.Required, []string{"session"}) {
		t.Errorf("probeRequest: %+v", n)
	}
}

// TestProtocolSchemaCommittedCopy: docs/protocol.schema.json is what the generator makes.
func TestProtocolSchemaCommittedCopy(t *testing.T) {
	want, err := ProtocolSchema()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../docs/protocol.schema.json")
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("docs/protocol.schema.json is not the generated schema (%v); regenerate it: go run ./cmd/fastbrowser schema --protocol > docs/protocol.schema.json", err)
	}
}

// TestWireTranscriptFramesValidate: every frame of a real session (the runtime's pinned
// transcript: what the runtime sends its worker, what the worker answers, what serve
// answers) validates; the worker's results validate against their own op's result too.
func TestWireTranscriptFramesValidate(t *testing.T) {
	f, err := os.Open("../runtime/testdata/wire-transcript.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root := protocolSchemaAt(t, "")
	opOf := map[string]string{} // request id → op, from the frames to the worker
	section, frames := "", 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "== "); ok {
			section = name
			continue
		}
		frames++
		if err := validateJSON(t, root, line); err != nil {
			t.Errorf("%s: %s\n%v", section, line, err)
			continue
		}
		var fr struct {
			ID     string          `json:"id"`
			Op     string          `json:"op"`
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal([]byte(line), &fr)
		switch {
		case section == "to worker":
			opOf[fr.ID] = fr.Op
		case section == "from worker" && fr.Result != nil:
			if err := validateJSON(t, protocolSchemaAt(t, opOf[fr.ID]+".result"), string(fr.Result)); err != nil {
				t.Errorf("result of %s (id %s): %s\n%v", opOf[fr.ID], fr.ID, fr.Result, err)
			}
		}
	}
	if err := sc.Err(); err != nil || frames < 50 || len(opOf) < 20 {
		t.Fatalf("read %d frames, %d requests: %v", frames, len(opOf), err)
	}
}

// TestProtocolSchemaRefusesInvalidFrames: frames the worker would refuse fail the schema;
// their valid neighbours pass.
func TestProtocolSchemaRefusesInvalidFrames(t *testing.T) {
	root := protocolSchemaAt(t, "")
	for _, tc := range []struct{ frame, why string }{
		{`{"v":1,"id":"1","op":"evaluate","request":{"expression":"1+1"}}`, "unknown op"},
		{`{"v":1,"id":"1","op":"navigate","request":{}}`, "missing required field url"},
		{`{"v":1,"op":"read"}`, "missing frame id"},
		{`{"v":1,"id":"","op":"read"}`, "empty frame id"},
		{`{"v":2,"id":"1","op":"read"}`, "wrong version"},
		{`{"v":1,"id":"1","op":"read","timeoutMs":"5"}`, "timeoutMs a string"},
		{`{"v":1,"id":"1","op":"act","request":{"action":"click","target":"e1"}}`, "target a string"},
		{`{"v":1,"id":"1","op":"navigate","request":{"url":"https://a.test","bogus":1}}`, "unknown request field"},
		{`{"v":1,"id":"1","op":"read","bogus":"s"}`, "unknown frame field"},
		{`{"v":1,"id":"1","op":"assert","request":{"kind":"title","value":"x","wait":""}}`, "wait not one of the two"},
		{`{"v":1,"id":"1","op":"act","request":{"action":"type","target":{"ref":"e1"},"text":{"env":"1BAD"}}}`, "text env not a variable name"},
		{`{"v":1,"id":"1","op":"navigate","request":{"url":null}}`, "required field null"},
		{`{"v":1,"id":"1","op":"read","request":{"tab":null}}`, "string field null"},
		{`{"v":1,"id":"1","result":{"closed":"yes"},"posture":"ok"}`, "result of no op"},
		{`{"v":1,"id":"1","error":{"operation":"read","phase":"validate","code":"no_such_code","message":"m","retry":"never","mutationState":"not_attempted"},"posture":"failed"}`, "unknown code"},
		{`{"v":1,"id":"1","error":{"operation":"read","phase":"validate","code":"timeout","message":"m","retry":"never"},"posture":"failed"}`, "error without mutationState"},
		{`{"v":1,"id":"1","result":{"closed":true},"posture":"fine"}`, "unknown posture"},
		{`{"v":1,"cancel":7}`, "cancel id a number"},
		{`{"v":1,"ready":{"browser":"B"}}`, "ready without protocol"},
	} {
		if err := validateJSON(t, root, tc.frame); err == nil {
			t.Errorf("%s: schema accepts %s", tc.why, tc.frame)
		}
		if strings.Contains(tc.frame, `"op"`) && decodeRequestFrame(tc.frame) == nil {
			t.Errorf("%s: the server's decoder accepts %s (the case is wrong)", tc.why, tc.frame)
		}
	}
	for _, frame := range []string{
		`{"v":1,"id":"1","op":"read"}`,
		`{"v":1,"id":"1","op":"read","request":null,"timeoutMs":5000}`,
		`{"v":1,"id":"1","op":"act","request":{"action":"type","target":{"role":"textbox","name":"Password","exact":false},"text":{"env":"PW"}}}`,
		`{"v":1,"id":"1","op":"assert","request":{"kind":"textContains","value":"x","wait":"bounded","cell":{"row":"r","column":"c"}}}`,
		`{"v":1,"id":"1","op":"listTabs","request":{"select":{"kind":"index","index":0}}}`,
		`{"v":1,"cancel":"7"}`,
		`{"v":1,"error":{"operation":"","phase":"validate","code":"protocol_error","message":"frame is not valid JSON","retry":"never","mutationState":"not_attempted"},"posture":"failed"}`,
	} {
		if err := validateJSON(t, root, frame); err != nil {
			t.Errorf("schema refuses %s: %v", frame, err)
		}
		if strings.Contains(frame, `"op"`) {
			if err := decodeRequestFrame(frame); err != nil {
				t.Errorf("the server's decoder refuses %s: %v (the case is wrong)", frame, err)
			}
		}
	}
}

// decodeRequestFrame decodes a request line as Serve does, short of its validation of values.
func decodeRequestFrame(line string) error {
	var rf RequestFrame
	if err := strictjson.Decode([]byte(line), &rf); err != nil {
		return err
	}
	if rf.V != Version || rf.ID == "" {
		return errors.New("bad v or id")
	}
	op, ok := NewOperation(rf.Op)
	if !ok {
		return errors.New("unknown op")
	}
	raw := rf.Request
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	return strictjson.DecodeAt(raw, op, "request")
}

type selfMarshaling struct{}

func (selfMarshaling) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type namedScalar string

// TestProtocolSchemaRefusesUnknownTypes: a type the generator has no rule for is an error
// naming the field, never a guessed schema.
func TestProtocolSchemaRefusesUnknownTypes(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{struct {
			D time.Duration `json:"d"`
		}{}, "x.d: named type time.Duration"},
		{struct {
			R json.RawMessage `json:"r"`
		}{}, "x.r: type json.RawMessage implements"},
		{struct {
			S []selfMarshaling `json:"s"`
		}{}, "x.s[]: type transport.selfMarshaling implements MarshalJSON"},
		{struct {
			N *namedScalar `json:"n"`
		}{}, "x.n: named type transport.namedScalar"},
		{struct {
			B []byte `json:"b"`
		}{}, "x.b: type []uint8"},
		{struct {
			A any `json:"a"`
		}{}, "x.a: type interface {}"},
		{struct {
			M map[int]string `json:"m"`
		}{}, "x.m: type map[int]string"},
		{struct {
			T time.Time `json:"t"`
		}{}, "x.t: type time.Time implements"},
	} {
		_, err := newSchemaGen().typeSchema(reflect.TypeOf(tc.v), toServer, "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: %v, want an error containing %q", tc.v, err, tc.want)
		}
	}
}

// TestSchemaEnumsListEveryConstant: each closed set in typeRules lists exactly the constants
// of its type that this package declares, in order (WaitMode's are untyped: checked by name).
func TestSchemaEnumsListEveryConstant(t *testing.T) {
	declared := declaredStringConsts(t)
	declared["WaitMode"] = []string{WaitBounded, WaitNone}
	for typ, rule := range typeRules {
		enum := rule().Enum
		if enum == nil {
			continue
		}
		if want := declared[typ.Name()]; len(want) == 0 || !slices.Equal(enum, want) {
			t.Errorf("%s: the schema lists %v; the package declares %v", typ.Name(), enum, want)
		}
	}
}

// declaredStringConsts maps each named type to the string constants of that type the
// package's sources declare, in declaration order.
func declaredStringConsts(t *testing.T) map[string][]string {
	t.Helper()
	declared := map[string][]string{}
	for _, file := range packageSources(t) {
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						declared[id.Name] = append(declared[id.Name], s)
					}
				}
			}
		}
	}
	return declared
}
