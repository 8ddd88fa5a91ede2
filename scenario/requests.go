package scenario

import (
	"reflect"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// A file request is the protocol request of an operation the table marks InFiles, with
// its tab handle field ("tab", or waitPopup's "opener") written as a TabRef. Nothing here is
// per operation: the request types and the table say it all.
type fileRequest struct {
	op       transport.Operation // the protocol request; its handle field stays empty
	tab      *TabRef             // the file's reference in place of the handle (nil: none)
	tabField string              // the handle field's JSON name ("" when the op names no tab)
}

// bind returns the protocol request with its tab set to a resolved handle ("" = selected).
func (r *fileRequest) bind(tab string) transport.Operation { return transport.WithTab(r.op, tab) }

// newFileRequest returns an empty file request for op, or false for an op scenario files
// cannot use.
func newFileRequest(op string) (*fileRequest, bool) {
	spec, ok := transport.LookupOp(op)
	if !ok || !spec.InFiles {
		return nil, false
	}
	req := spec.New()
	field, _ := transport.HandleField(req)
	return &fileRequest{op: req, tabField: field}, true
}

// FileOps lists the ops a scenario file may use: the operation table's InFiles rows, in
// its order, with the runner's own step after act. Error messages, the schema's op list and
// docs/scenarios.md's operation table (both generated) list them so.
func FileOps() []string {
	var names []string
	for _, s := range transport.Ops() {
		if s.InFiles {
			names = append(names, s.Name)
		}
		if s.Name == transport.OpAct {
			names = append(names, OpStep)
		}
	}
	return names
}

// fileOps is FileOps for error messages.
var fileOps = strings.Join(FileOps(), ", ")

// decodeRequest decodes a file's request strictly: the handle field as a TabRef, and a
// field only the runtime may set (tagged `file:"-"`) refused.
func decodeRequest(fr *fileRequest, raw []byte, path string) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	redirect := map[string]any{}
	if fr.tabField != "" {
		redirect[fr.tabField] = &fr.tab
	}
	t := reflect.TypeOf(fr.op).Elem()
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Tag.Get("file") == "-" {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			redirect[name] = new(*runtimeOnly)
		}
	}
	return strictjson.DecodeRedirected(raw, fr.op, path, redirect)
}

// runtimeOnly refuses a protocol field that only the runtime may set.
type runtimeOnly struct{}

func (*runtimeOnly) UnmarshalStrictJSON(_ []byte, path string) error {
	return &strictjson.Error{Path: path, Expected: "no such field", Message: "unknown field (the runtime sets it; a scenario file cannot)"}
}
