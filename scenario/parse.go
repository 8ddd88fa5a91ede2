package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// ValidationError is a refusal of a scenario file: a stable code (invalid_request, or
// budget_exceeded for a budget over its ceiling), the JSON path and what was expected.
type ValidationError struct {
	File    string
	Project string // the project it was loaded for ("": none)
	Path    string
	Code    transport.Code
	Message string
}

func (e *ValidationError) Error() string {
	path := e.Path
	if path == "" {
		path = "(root)"
	}
	msg := path + ": " + e.Message + " (" + string(e.Code) + ")"
	if e.Project != "" {
		msg = "project " + e.Project + ": " + msg
	}
	if e.File == "" {
		return msg
	}
	return e.File + ": " + msg
}

// OperationError gives the refusal the protocol's one error shape.
func (e *ValidationError) OperationError() *transport.OperationError {
	return transport.NewError("", transport.PhaseValidate, e.Code, transport.RetryNever, transport.NotAttempted, "%s", e.Message).WithPath(e.Path)
}

func fail(path, msg string) error {
	return &ValidationError{Path: path, Code: transport.CodeInvalidRequest, Message: msg}
}

func overCeiling(path string, ms int64, b budgets.Budget) error {
	return &ValidationError{Path: path, Code: transport.CodeBudgetExceeded,
		Message: fmt.Sprintf("%d ms is over the %s ceiling of %d ms", ms, b.Name, b.Ceiling.Milliseconds())}
}

func quote(s string) string { return strconv.Quote(s) }

// Loaded is a parsed, validated scenario file ready to run.
type Loaded struct {
	*File
	Path string // as given on the command line
	Dir  string // the file's directory: a managed server's default cwd
	// SHA256 is of the file's bytes, or, when it includes fragments, of what ran: the
	// file's digest and each fragment's (combinedDigest).
	SHA256    string
	Fragments []FragmentRef // the fragment files included, in include order
	Origins   []string
	// Project is the name of the project it was loaded for ("": none); Variables are the
	// variables its operations used, with the values they had (not secret: report.json
	// lists them).
	Project   string
	Variables map[string]string
}

// Load reads and validates one scenario file.
func Load(path string) (*Loaded, error) { return LoadWith(path, Overrides{}) }

// LoadWith is Load with a run's overrides applied before validation.
func LoadWith(path string, o Overrides) (*Loaded, error) {
	data, err := readBounded(path, "file")
	if err != nil {
		return nil, &ValidationError{File: path, Code: transport.CodeInvalidRequest, Message: err.Error()}
	}
	l, err := parse(data, o, sourceOf(path))
	if err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.File = path
			if o.Project != nil {
				ve.Project = o.Project.Name
			}
			if IsFragment(data) {
				ve.Path, ve.Message = "", `a fragment file, not a scenario: include it from a scenario's operations ({"include": "…"})`
			}
		}
		return nil, err
	}
	l.Path = path
	l.Dir = dirOf(path)
	return l, nil
}

// Parse decodes and validates scenario file bytes strictly: unknown fields, duplicate or
// case-variant keys, wrong types, missing required fields and every rule of
// docs/scenarios.md are refused with the JSON path.
// Includes and upload paths resolve against the working directory.
func Parse(data []byte) (*Loaded, error) { return parse(data, Overrides{}, sourceOf("scenario.json")) }

// ParseIn is Parse for bytes that will be the file name in dir (a session's export, validated
// before it is written): includes and upload paths resolve against dir.
func ParseIn(data []byte, dir, name string) (*Loaded, error) {
	return parse(data, Overrides{}, sourceOf(filepath.Join(dir, name)))
}

func parse(data []byte, o Overrides, src source) (*Loaded, error) {
	if len(data) > budgets.ScenarioFileSize {
		return nil, fail("", fmt.Sprintf("file larger than %d bytes", budgets.ScenarioFileSize))
	}
	vs, err := o.varScope(data)
	if err != nil {
		return nil, err
	}
	decoded, err := substituteVars(data, vs)
	if err != nil {
		return nil, err
	}
	var f File
	if err := decodeVersioned(decoded, &f, &f.Version); err != nil {
		return nil, err
	}
	o.Project.fill(&f)
	// Operation locations come from the file's bytes as read (data), not the substituted
	// ones the decode was given: a {"var"} changes no line or column a reader sees.
	src.written = sourcesOf(src.display, data, len(f.Operations))
	o.Config.fill(&f)
	o.Project.rebase(&f)
	o.apply(&f)
	if !names.ValidID(f.ID) {
		return nil, fail("id", "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
	}
	if err := checkTags(f.Tags); err != nil {
		return nil, err
	}
	if err := checkBudgets(f.Budgets); err != nil {
		return nil, err
	}
	if err := checkDefaultTimeouts(f.ExpectTimeoutMs, f.ActionTimeoutMs); err != nil {
		return nil, err
	}
	base, err := checkFixture(f.Fixture)
	if err != nil {
		return nil, err
	}
	if err := checkHooks(f.Hooks); err != nil {
		return nil, err
	}
	if v := f.Viewport; v != nil {
		if err := v.Check(); err != nil {
			return nil, fail("viewport", err.Error())
		}
	}
	if err := checkTestIDAttribute(f.TestIDAttribute); err != nil {
		return nil, err
	}
	if err := checkModel(f.Model); err != nil {
		return nil, err
	}
	if r := f.Redaction; r != nil {
		if len(r.Rules) == 0 {
			return nil, fail("redaction.rules", "expected at least one rule {role?, name?, label?}")
		}
		if err := transport.ValidateRedaction("", "redaction.rules", r.Rules); err != nil {
			oe := transport.AsOperationError("", err)
			return nil, fail(oe.Path, oe.Message)
		}
	}
	origins, err := checkOrigins(f.AllowedOrigins, base)
	if err != nil {
		return nil, err
	}
	x := &expander{chain: []string{filepath.Join(src.dir, filepath.Base(src.display))}, vars: vs}
	ops, _, err := x.expand(f.Operations, src, "", nil, 0)
	if err != nil {
		return nil, err
	}
	f.Operations = ops
	if err := checkOperations(f.Operations, base); err != nil {
		return nil, err
	}
	if o.ModelKnown && f.Model == nil {
		if err := judgedWithoutModel(f.Operations); err != nil {
			return nil, err
		}
	}
	applyDefaultTimeouts(f.Operations, f.ExpectTimeoutMs, f.ActionTimeoutMs)
	sum := combinedDigest(sha256.Sum256(data), x.digests)
	return &Loaded{File: &f, SHA256: hex.EncodeToString(sum[:]), Fragments: x.fragments, Origins: origins, Project: vs.projectName, Variables: vs.used}, nil
}

// decodeVersioned decodes a scenario, fragment or config file strictly into v and checks
// the version it says (*version, a field of v) is the one this build reads.
func decodeVersioned(data []byte, v any, version *int) error {
	if err := strictjson.Decode(data, v); err != nil {
		return fromStrict(err)
	}
	if *version != FileVersion {
		return fail("version", fmt.Sprintf("unsupported version %d; this build reads version %d", *version, FileVersion))
	}
	return nil
}

// fromValidate is a protocol refusal of operations[i] (path) as the file's: its field path
// under the operation, and budget_exceeded kept for a budget over its ceiling (a task's
// maxTurns 9), every other refusal invalid_request.
func fromValidate(op, path string, err error) error {
	oe := transport.AsOperationError(op, err)
	ve := &ValidationError{Path: path + "." + oe.Path, Code: transport.CodeInvalidRequest, Message: oe.Message}
	if oe.Code == transport.CodeBudgetExceeded {
		ve.Code = oe.Code
	}
	return ve
}

func fromStrict(err error) error {
	var se *strictjson.Error
	if errors.As(err, &se) {
		return fail(se.Path, se.Message)
	}
	return fail("", "malformed scenario file")
}

func checkBudgets(b *Budgets) error {
	if b == nil {
		return nil
	}
	if b.TimeoutMs <= 0 {
		return fail("budgets.timeoutMs", "expected a positive number of milliseconds")
	}
	if _, err := budgets.ScenarioRun().ResolveMs(b.TimeoutMs); err != nil {
		return overCeiling("budgets.timeoutMs", b.TimeoutMs, budgets.ScenarioRun())
	}
	return nil
}

// checkFixture returns the parsed base URL (nil without a fixture).
func checkFixture(fx *Fixture) (*url.URL, error) {
	if fx == nil {
		return nil, nil
	}
	base, err := checkHTTPURL(fx.BaseURL, "fixture.baseUrl")
	if err != nil {
		return nil, err
	}
	s := fx.Server
	if s == nil {
		return base, nil
	}
	switch s.Mode {
	case ModeManaged:
		if s.Start == nil {
			return nil, fail("fixture.server.start", "a managed server needs a start command")
		}
		if err := checkCommand(s.Start, "fixture.server.start", false); err != nil {
			return nil, err
		}
	case ModeExternal:
		if s.Start != nil {
			return nil, fail("fixture.server.start", "an external server has no start command; the runner only probes readiness")
		}
		if s.ReuseExisting {
			return nil, fail("fixture.server.reuseExisting", "reuseExisting goes with a managed server")
		}
	default:
		return nil, fail("fixture.server.mode", `expected "managed" or "external"`)
	}
	rd := s.Readiness
	if _, err := checkHTTPURL(rd.URL, "fixture.server.readiness.url"); err != nil {
		return nil, err
	}
	if rd.ExpectedStatus != 0 && (rd.ExpectedStatus < 100 || rd.ExpectedStatus > 599) {
		return nil, fail("fixture.server.readiness.expectedStatus", "expected an HTTP status 100–599")
	}
	if rd.TimeoutMs < 0 {
		return nil, fail("fixture.server.readiness.timeoutMs", "expected a positive number of milliseconds")
	}
	if _, err := budgets.FixtureReadiness().ResolveMs(rd.TimeoutMs); err != nil {
		return nil, overCeiling("fixture.server.readiness.timeoutMs", rd.TimeoutMs, budgets.FixtureReadiness())
	}
	return base, nil
}

func checkHTTPURL(raw, path string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fail(path, "expected an absolute http or https URL")
	}
	if u.User != nil {
		return nil, fail(path, "a URL must not carry credentials")
	}
	if len(raw) > budgets.URLBytes {
		return nil, fail(path, fmt.Sprintf("URL longer than %d bytes", budgets.URLBytes))
	}
	return u, nil
}

func checkCommand(c *Command, path string, hook bool) error {
	if c.Command == "" {
		return fail(path+".command", "expected a program name or path")
	}
	for i, a := range append([]string{c.Command, c.Cwd}, c.Args...) {
		for _, r := range a {
			if r == 0 {
				p := path + ".args[" + strconv.Itoa(i-2) + "]"
				if i == 0 {
					p = path + ".command"
				} else if i == 1 {
					p = path + ".cwd"
				}
				return fail(p, "NUL bytes are not allowed")
			}
		}
	}
	for name := range c.Env {
		if !names.ValidEnvName(name) {
			return fail(path+".env", "variable name "+quote(name)+" is not a valid environment name")
		}
	}
	if c.TimeoutMs != 0 {
		if !hook {
			return fail(path+".timeoutMs", "timeoutMs goes with hooks; a server's wait is its readiness timeoutMs")
		}
		if c.TimeoutMs < 0 {
			return fail(path+".timeoutMs", "expected a positive number of milliseconds")
		}
		if _, err := budgets.Hook().ResolveMs(c.TimeoutMs); err != nil {
			return overCeiling(path+".timeoutMs", c.TimeoutMs, budgets.Hook())
		}
	}
	return nil
}

func checkHooks(h *Hooks) error {
	if h == nil {
		return nil
	}
	for _, hk := range []struct {
		c    *Command
		name string
	}{{h.Setup, "setup"}, {h.Reset, "reset"}, {h.Cleanup, "cleanup"}} {
		if hk.c != nil {
			if err := checkCommand(hk.c, "hooks."+hk.name, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkOrigins validates allowedOrigins and returns the base policy's list: the given list,
// else the fixture's origin, else "*".
func checkOrigins(list []string, base *url.URL) ([]string, error) {
	if list == nil {
		if base != nil {
			return []string{policy.OriginOf(base.String())}, nil
		}
		return []string{policy.Any}, nil
	}
	if len(list) == 0 {
		return nil, fail("allowedOrigins", "expected at least one origin (omit the field for the default)")
	}
	if _, err := policy.Parse(list); err != nil {
		return nil, fail("allowedOrigins", err.Error())
	}
	return list, nil
}

func checkOperations(ops []Operation, base *url.URL) error {
	if len(ops) == 0 {
		return fail("operations", "expected at least one operation")
	}
	if len(ops) > budgets.ScenarioOps {
		return fail("operations", fmt.Sprintf("more than %d operations", budgets.ScenarioOps))
	}
	ids := map[string]int{}
	for i := range ops {
		if err := checkOperation(ops, i, ids, base); err != nil {
			return relocate(&ops[i], i, err)
		}
	}
	return nil
}

// checkOperation checks ops[i] (ids holds the earlier operations' ids) and decodes its
// request or step.
func checkOperation(ops []Operation, i int, ids map[string]int, base *url.URL) error {
	op := &ops[i]
	path := "operations[" + strconv.Itoa(i) + "]"
	if op.Op == "" {
		return fail(path, `missing required field "op"`)
	}
	if op.ID != "" {
		if !names.IDShaped(op.ID) {
			return fail(path+".id", "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
		}
		if j, dup := ids[op.ID]; dup {
			return fail(path+".id", fmt.Sprintf("id %q is already used by operations[%d]%s", op.ID, j, ops[j].where()))
		}
		ids[op.ID] = i
	}
	if op.TimeoutMs < 0 {
		return fail(path+".timeoutMs", "expected a positive number of milliseconds")
	}
	if _, err := budgets.Request().ResolveMs(op.TimeoutMs); err != nil {
		return overCeiling(path+".timeoutMs", op.TimeoutMs, budgets.Request())
	}
	if op.Soft && op.Op != transport.OpAssert {
		return fail(path+".soft", `"soft" goes with op "assert" (a soft assertion); `+quote(clip(op.Op))+" cannot be soft")
	}
	if err := checkWords(op, path); err != nil {
		return err
	}
	if op.Context != nil {
		if op.Op == OpStep || op.Op == transport.OpNarrowOriginPolicy {
			return fail(path+".context", "a context goes with browser operations, not with "+op.Op)
		}
		if err := op.scope.rewrite(&op.Context.Operation, path+".context.operation"); err != nil {
			return err
		}
		if _, err := checkOpRef(&op.Context.Operation, path+".context.operation", i, ops, ids, transport.OpNarrowOriginPolicy); err != nil {
			return err
		}
	}
	if op.When != nil {
		if err := checkWhen(op.When, path+".when", base); err != nil {
			return err
		}
	}
	if op.Op == OpStep {
		st, err := parseStep(op, path, base)
		if err != nil {
			return err
		}
		op.step = st
		return nil
	}
	if len(op.Step) > 0 {
		return fail(path+".step", `"step" goes with op "step"`)
	}
	if op.Words != "" && len(op.Request) == 0 {
		return nil // an act in words without a recording: it always runs by its words
	}
	fr, ok := newFileRequest(op.Op)
	if !ok {
		return fail(path+".op", fmt.Sprintf("unknown op %q; scenario files can use %s", clip(op.Op), fileOps))
	}
	if err := decodeRequest(fr, op.Request, path+".request"); err != nil {
		return fromStrict(err)
	}
	if nav, ok := fr.op.(*transport.Navigate); ok {
		resolved, err := resolveURL(nav.URL, base, path+".request.url")
		if err != nil {
			return err
		}
		nav.URL = resolved
	}
	if t, ok := fr.op.(*transport.Task); ok {
		if err := resolvePostcondition(t.Postcondition, base, path+".request.postcondition.value"); err != nil {
			return err
		}
	}
	if err := resolveAssert(fr, base, path+".request.value"); err != nil {
		return err
	}
	if err := resolveWaitURL(fr, base, path+".request.url"); err != nil {
		return err
	}
	if err := checkNarrowing(fr, path+".request.origins"); err != nil {
		return err
	}
	placeholder := ""
	if ref := fr.tab; ref != nil {
		if ref.Operation != nil {
			if err := op.scope.rewrite(ref.Operation, path+".request."+fr.tabField+".operation"); err != nil {
				return err
			}
		}
		if _, err := checkTabRef(ref, path+".request."+fr.tabField, i, ops, ids); err != nil {
			return err
		}
		placeholder = "ref"
	}
	if err := transport.Validate(fr.bind(placeholder)); err != nil {
		return fromValidate(op.Op, path, err)
	}
	if err := resolveUploads(fr, op.dir, path+".request.files"); err != nil {
		return err
	}
	op.req = fr
	return nil
}

// resolveURL resolves a relative URL against fixture.baseUrl (URL resolution, not
// templating); an absolute URL is left as written for the policy to judge at run time. Either
// way the URL must be http(s) with a host and no credentials: that much needs no policy.
// Messages never quote the URL, which may hold a password.
func resolveURL(raw string, base *url.URL, path string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fail(path, "not a URL")
	}
	resolved := raw
	if !u.IsAbs() {
		if base == nil {
			return "", fail(path, "a relative URL needs fixture.baseUrl")
		}
		u = base.ResolveReference(u)
		resolved = u.String()
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fail(path, "expected an http or https URL (scheme "+quote(clip(u.Scheme))+" is not allowed)")
	}
	if u.User != nil {
		return "", fail(path, "a URL must not carry credentials")
	}
	return resolved, nil
}

// resolveAssert resolves a url assertion's value like navigate's url, so "/form" means the
// fixture's /form, and refuses an origin assertion's value that is not an http(s) origin.
func resolveAssert(fr *fileRequest, base *url.URL, path string) error {
	a, ok := fr.op.(*transport.Assert)
	if !ok {
		return nil
	}
	a.Normalize()
	if a.Value == "" { // an empty value (or a regex) is the protocol's to check
		return nil
	}
	switch a.Kind {
	case transport.AssertURL:
		resolved, err := resolveURL(a.Value, base, path)
		if err != nil {
			return err
		}
		a.Value, a.ValueMatch = resolved, transport.Is(resolved)
	case transport.AssertOrigin:
		if _, err := policy.NormalizeOrigin(a.Value); err != nil {
			return fail(path, "expected an exact http or https origin without credentials, path, query or fragment")
		}
	}
	return nil
}

// resolveWaitURL resolves a url wait's relative URL against fixture.baseUrl, as Playwright
// resolves a waitForURL string that does not start with "*" against its baseURL: "/orders"
// means the fixture's /orders. A glob starting with "*" ("**/orders"), an absolute URL and a
// regex stay as written.
func resolveWaitURL(fr *fileRequest, base *url.URL, path string) error {
	w, ok := fr.op.(*transport.Wait)
	if !ok || w.URL == nil || w.URL.IsRegex() || w.URL.String == "" || strings.HasPrefix(w.URL.String, "*") {
		return nil
	}
	u, err := url.Parse(w.URL.String)
	if err != nil || u.IsAbs() {
		return nil // matched as written
	}
	if base == nil {
		return fail(path, "a relative URL needs fixture.baseUrl (or write a glob such as \"**/orders\")")
	}
	w.URL = transport.Is(base.ResolveReference(u).String())
	return nil
}

// checkNarrowing refuses, at load, a narrowing origin that could never be one (a scheme other
// than http(s), credentials, a path, "*"); whether it is inside the base is the runtime's to
// say.
func checkNarrowing(fr *fileRequest, path string) error {
	n, ok := fr.op.(*transport.NarrowOriginPolicy)
	if !ok {
		return nil
	}
	for i, o := range n.Origins {
		if _, err := policy.NormalizeOrigin(o); err != nil {
			return fail(path+"["+strconv.Itoa(i)+"]", "expected an exact http or https origin without credentials, path, query or fragment")
		}
	}
	return nil
}

// clip bounds a value quoted in a message.
func clip(s string) string { return textclip.Clip(s, 40) }

// testIDAttributePattern is an HTML attribute name a testId locator may compare.
// Compiled on first use: a counted repetition compiles to many instructions, which
// every start would pay in init (TestOwnPackageInitsAllocateLittle).
var testIDAttributePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`) })

// checkTestIDAttribute checks testIdAttribute (a scenario's or a run config's).
func checkTestIDAttribute(a string) error {
	if a != "" && !testIDAttributePattern().MatchString(a) {
		return fail("testIdAttribute", "expected an attribute name such as \"data-test\" (a letter or _, then up to 63 letters, digits, _ . : -)")
	}
	return nil
}
