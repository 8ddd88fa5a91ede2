package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// Project is one entry of a run config's "projects" (docs/scenarios.md "Projects"): `run`
// runs the suite once per project, as Playwright Test's projects, each with its own
// settings (Playwright's `use` that fastbrowser has).
type Project struct {
	// Name is how the project is selected (--project) and reported ("v1 › signup").
	Name string `json:"name" required:"true"`
	// BaseURL replaces every scenario's fixture.baseUrl (the managed server, if any, is kept):
	// relative URLs resolve against it.
	BaseURL string `json:"baseUrl,omitempty"`
	// Variables sit between a file's own variables and --var.
	Variables map[string]string `json:"variables,omitempty"`
	// AllowedOrigins, Viewport and TestIDAttribute fill a scenario that leaves them out, ahead
	// of the config's own.
	AllowedOrigins  []string            `json:"allowedOrigins,omitempty"`
	Viewport        *transport.Viewport `json:"viewport,omitempty"`
	TestIDAttribute string              `json:"testIdAttribute,omitempty"`
}

// projectNamePattern is a project name: it is part of the artifact run directory
// (<runId>.<project>, at most 64 characters with a retry's suffix), so it is short.
// Compiled on first use: a counted repetition compiles to many instructions, which
// every start would pay in init (TestOwnPackageInitsAllocateLittle).
var projectNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,23}$`) })

// checkProjects checks a config's projects: names unique and well formed, each field as the
// scenario's of the same name.
func checkProjects(ps []Project) error {
	seen := map[string]bool{}
	for i := range ps {
		p := &ps[i]
		path := "projects[" + strconv.Itoa(i) + "]"
		if !projectNamePattern().MatchString(p.Name) {
			return fail(path+".name", "expected 1–24 characters of A–Z, a–z, 0–9, '.', '_' or '-', not starting with '.'")
		}
		if seen[p.Name] {
			return fail(path+".name", "project "+quote(p.Name)+" is already defined")
		}
		seen[p.Name] = true
		var base = (*Fixture)(nil)
		if p.BaseURL != "" {
			base = &Fixture{BaseURL: p.BaseURL}
		}
		u, err := checkFixture(base)
		if err != nil {
			return fail(path+".baseUrl", "expected an absolute http or https URL without credentials")
		}
		if err := CheckVars(p.Variables, path+".variables"); err != nil {
			return err
		}
		if p.AllowedOrigins != nil {
			if _, err := checkOrigins(p.AllowedOrigins, u); err != nil {
				return fail(path+".allowedOrigins", err.(*ValidationError).Message)
			}
		}
		if v := p.Viewport; v != nil {
			if err := v.Check(); err != nil {
				return fail(path+".viewport", err.Error())
			}
		}
		if err := checkTestIDAttribute(p.TestIDAttribute); err != nil {
			return fail(path+".testIdAttribute", err.(*ValidationError).Message)
		}
	}
	return nil
}

// SelectProjects picks the projects named (--project, repeatable; none: every project in
// config order). No projects in the config and none named: one run without a project (nil
// entry). A name the config does not define is refused, listing those it does.
func SelectProjects(cfg *RunConfig, names []string) ([]*Project, error) {
	var all []Project
	if cfg != nil {
		all = cfg.Projects
	}
	if len(names) == 0 {
		if len(all) == 0 {
			return []*Project{nil}, nil
		}
		out := make([]*Project, len(all))
		for i := range all {
			out[i] = &all[i]
		}
		return out, nil
	}
	var out []*Project
	for _, n := range names {
		k := slices.IndexFunc(all, func(p Project) bool { return p.Name == n })
		if k < 0 {
			defined := make([]string, len(all))
			for i, p := range all {
				defined[i] = p.Name
			}
			if len(defined) == 0 {
				return nil, fmt.Errorf("--project %q: the run config defines no projects", n)
			}
			return nil, fmt.Errorf("--project %q: no such project; the run config defines %s", n, strings.Join(defined, ", "))
		}
		if !slices.Contains(out, &all[k]) {
			out = append(out, &all[k])
		}
	}
	return out, nil
}

// fill gives f the project's value of each setting f leaves out (before the config's).
func (p *Project) fill(f *File) {
	if p == nil {
		return
	}
	if f.AllowedOrigins == nil && p.AllowedOrigins != nil {
		f.AllowedOrigins = slices.Clone(p.AllowedOrigins)
	}
	if f.Viewport == nil {
		f.Viewport = p.Viewport
	}
	if f.TestIDAttribute == "" {
		f.TestIDAttribute = p.TestIDAttribute
	}
}

// rebase puts the project's baseUrl in place of the fixture's (after the config filled
// it): the managed server, if any, still starts; an allowedOrigins entry equal to the old
// fixture origin becomes the project's, as with --base-url.
func (p *Project) rebase(f *File) {
	if p == nil || p.BaseURL == "" {
		return
	}
	if f.Fixture == nil {
		f.Fixture = &Fixture{BaseURL: p.BaseURL}
		return
	}
	old := policy.OriginOf(f.Fixture.BaseURL)
	fx := *f.Fixture
	fx.BaseURL = p.BaseURL
	f.Fixture = &fx
	for i, a := range f.AllowedOrigins {
		if n, err := policy.NormalizeOrigin(a); err == nil && n == old && old != "" {
			f.AllowedOrigins[i] = policy.OriginOf(p.BaseURL)
		}
	}
}
