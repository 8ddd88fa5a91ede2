package scenario

import (
	"net/url"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// Overrides are what CI configuration may change in every scenario of a run without
// editing the files: the site under test is already running at BaseURL (external mode).
type Overrides struct {
	// BaseURL replaces each scenario's fixture.baseUrl and makes its server external: the
	// runner starts nothing and only probes readiness. Relative URLs resolve against it, and
	// an allowedOrigins entry equal to the old fixture origin becomes the new one.
	BaseURL string
	// ReadinessURL is the external readiness probe (default: BaseURL).
	ReadinessURL string
	// Model is --model's (nil: none given): it replaces the scenario's and the config's
	// model whole, so an endpoint and a key variable never come from different sources.
	Model *model.Config
	// Config holds the run config's defaults (nil: none): they fill the fields a scenario
	// leaves out, before BaseURL overrides.
	Config *RunConfig
	// Project is the project this load is for (nil: none): its settings sit between the
	// file's and the config's, its baseUrl replaces the fixture's, its variables sit
	// between the file's and Vars.
	Project *Project
	// Vars are --var's NAME=VALUE: they win over the file's and the project's variables.
	Vars map[string]string
	// ModelKnown: every source of a model was read (the file, Config, Model: `run` after it
	// looked for its run config), so a scenario left without one is refused at load for what
	// only a model can do (a judged when) instead of failing when the run reaches it.
	ModelKnown bool
}

func (o Overrides) empty() bool { return o.BaseURL == "" }

// apply rewrites a decoded file before validation, so every check sees the result.
func (o Overrides) apply(f *File) {
	if o.Model != nil {
		m := *o.Model
		f.Model = &m
	}
	if o.empty() {
		return
	}
	base := o.BaseURL
	var oldOrigin string
	if f.Fixture != nil {
		oldOrigin = policy.OriginOf(f.Fixture.BaseURL)
	}
	ready := o.ReadinessURL
	if ready == "" {
		ready = base
	}
	f.Fixture = &Fixture{BaseURL: base, Server: &Server{Mode: ModeExternal, Readiness: Readiness{URL: ready}}}
	newOrigin := policy.OriginOf(base)
	for i, a := range f.AllowedOrigins {
		if n, err := policy.NormalizeOrigin(a); err == nil && n == oldOrigin && oldOrigin != "" {
			f.AllowedOrigins[i] = newOrigin
		}
	}
}

// CheckOverrides refuses override URLs that are not absolute http(s) URLs.
func CheckOverrides(o Overrides) error {
	for _, c := range []struct{ flag, v string }{{"--base-url", o.BaseURL}, {"--readiness-url", o.ReadinessURL}} {
		if c.v == "" {
			continue
		}
		u, err := url.Parse(c.v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return &ValidationError{Path: c.flag, Code: transport.CodeInvalidRequest, Message: "expected an absolute http(s) URL without credentials"}
		}
	}
	if o.ReadinessURL != "" && o.BaseURL == "" {
		return &ValidationError{Path: "--readiness-url", Code: transport.CodeInvalidRequest, Message: "needs --base-url (it overrides external mode)"}
	}
	return nil
}

// varScope is the {"var"} scope of a scenario file's bytes: its own variables (read before
// the strict decode), the project's and Vars.
func (o Overrides) varScope(data []byte) (*varScope, error) {
	own, err := fileVariables(data)
	if err != nil {
		return nil, err
	}
	vs := &varScope{file: own, flags: o.Vars}
	if p := o.Project; p != nil {
		vs.project, vs.projectName = p.Variables, p.Name
	}
	return vs, nil
}
