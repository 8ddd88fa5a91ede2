package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/transport"
)

// ConfigName is the run config file `run`, `validate` and `replay` look for (FindConfig).
const ConfigName = "fastbrowser.json"

// Config is a run config file (docs/scenarios.md "Run config"): defaults for every scenario
// of a run. A scenario's own field wins over the config's, field by field; a CLI flag wins
// over both.
type Config struct {
	Schema         string              `json:"$schema,omitempty"` // for editors; not interpreted
	Version        int                 `json:"version" required:"true"`
	Fixture        *Fixture            `json:"fixture,omitempty"`
	AllowedOrigins []string            `json:"allowedOrigins,omitempty"`
	Budgets        *Budgets            `json:"budgets,omitempty"`
	Egress         *Egress             `json:"egress,omitempty"`
	Viewport       *transport.Viewport `json:"viewport,omitempty"`
	// TestIDAttribute is every scenario's testIdAttribute unless it names its own.
	TestIDAttribute string        `json:"testIdAttribute,omitempty"`
	Model           *model.Config `json:"model,omitempty"`
	// ExpectTimeoutMs and ActionTimeoutMs are every scenario's unless it gives its own
	// (File's fields of the same names).
	ExpectTimeoutMs int64 `json:"expectTimeoutMs,omitempty"`
	ActionTimeoutMs int64 `json:"actionTimeoutMs,omitempty"`
	// Retries and Jobs are `run`'s --retries and --jobs when those are not given.
	Retries *int `json:"retries,omitempty"`
	Jobs    *int `json:"jobs,omitempty"`
	// Projects run the suite once per entry (project.go; `run --project` picks some).
	Projects []Project `json:"projects,omitempty"`
	// Trace is `run`'s --trace when it is not given (off, on, on-failure, retain-on-failure).
	Trace string `json:"trace,omitempty"`
	// TLS is the CAs the run's browsers trust and the client certificates they present
	// (tlsconfig.go); its files are read when the config loads.
	TLS *TLSConfig `json:"tls,omitempty"`
	// Session is how `serve` hosts many sessions and what `conformance` opens them with
	// (runtime/registry's Config; docs/scenarios.md "Session config"). Scenarios ignore it.
	Session *registry.Config `json:"session,omitempty"`
	// trust is TLS, read (nil without it).
	trust *runtime.TLSTrust
}

// RunConfig is a loaded, checked config file.
type RunConfig struct {
	*Config
	Path string // as found or given
}

// FindConfig looks for fastbrowser.json in dir and its parents, and stops after the first
// directory that holds a .git entry (a repository's root) or at the filesystem root. It
// returns "" when there is none.
func FindConfig(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(abs, ConfigName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p
		}
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// LoadConfig reads and checks a config file as strictly as a scenario file: refusals carry
// the config's path and the field's. A managed server's relative cwd resolves against the
// config's directory (its default cwd is that directory), not each scenario's.
func LoadConfig(path string) (*RunConfig, error) {
	cfg, err := loadConfig(path)
	if err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.File = path
		}
		return nil, err
	}
	return &RunConfig{Config: cfg, Path: path}, nil
}

func loadConfig(path string) (*Config, error) {
	data, err := readBounded(path, "config file")
	if err != nil {
		return nil, fail("", err.Error())
	}
	var c Config
	if err := decodeVersioned(data, &c, &c.Version); err != nil {
		return nil, err
	}
	base, err := checkFixture(c.Fixture)
	if err != nil {
		return nil, err
	}
	if err := checkBudgets(c.Budgets); err != nil {
		return nil, err
	}
	if c.AllowedOrigins != nil {
		if _, err := checkOrigins(c.AllowedOrigins, base); err != nil {
			return nil, err
		}
	}
	if v := c.Viewport; v != nil {
		if err := v.Check(); err != nil {
			return nil, fail("viewport", err.Error())
		}
	}
	if err := checkTestIDAttribute(c.TestIDAttribute); err != nil {
		return nil, err
	}
	if err := checkModel(c.Model); err != nil {
		return nil, err
	}
	if err := checkDefaultTimeouts(c.ExpectTimeoutMs, c.ActionTimeoutMs); err != nil {
		return nil, err
	}
	if r := c.Retries; r != nil && (*r < 0 || *r > budgets.RunRetries) {
		return nil, fail("retries", fmt.Sprintf("expected 0 to %d", budgets.RunRetries))
	}
	if j := c.Jobs; j != nil && (*j < 1 || *j > budgets.RunJobs) {
		return nil, fail("jobs", fmt.Sprintf("expected 1 to %d", budgets.RunJobs))
	}
	if err := checkProjects(c.Projects); err != nil {
		return nil, err
	}
	if c.Trace != "" {
		if _, err := ParseTraceMode(c.Trace); err != nil {
			return nil, fail("trace", "expected off, on, on-failure or retain-on-failure")
		}
	}
	if err := checkSession(c.Session); err != nil {
		return nil, err
	}
	if c.trust, err = loadTLS(c.TLS, dirOf(path)); err != nil {
		return nil, err
	}
	if fx := c.Fixture; fx != nil && fx.Server != nil && fx.Server.Start != nil {
		start := *fx.Server.Start
		start.Cwd = commandDir(&start, dirOf(path))
		server := *fx.Server
		server.Start = &start
		c.Fixture = &Fixture{BaseURL: fx.BaseURL, Server: &server}
	}
	return &c, nil
}

// checkSession refuses a session block that could not work, naming the field inside it.
func checkSession(s *registry.Config) error {
	var ce *registry.ConfigError
	if err := s.Check(); errors.As(err, &ce) {
		return &ValidationError{Path: "session." + ce.Field, Code: ce.Code, Message: ce.Expected}
	} else if err != nil {
		return err
	}
	return nil
}

// fill gives f the config's value of each field f leaves out (before overrides and checks).
func (c *RunConfig) fill(f *File) {
	if c == nil {
		return
	}
	if f.Fixture == nil && c.Fixture != nil {
		fx := *c.Fixture
		f.Fixture = &fx
		f.fixtureFrom = c.Path
	}
	if f.AllowedOrigins == nil && c.AllowedOrigins != nil {
		f.AllowedOrigins = slices.Clone(c.AllowedOrigins) // overrides rewrite entries in place
	}
	if f.Budgets == nil {
		f.Budgets = c.Budgets
	}
	if f.Egress == nil {
		f.Egress = c.Egress
	}
	if f.Viewport == nil {
		f.Viewport = c.Viewport
	}
	if f.TestIDAttribute == "" {
		f.TestIDAttribute = c.TestIDAttribute
	}
	if f.Model == nil {
		f.Model = c.Model
	}
	if f.ExpectTimeoutMs == 0 {
		f.ExpectTimeoutMs = c.ExpectTimeoutMs
	}
	if f.ActionTimeoutMs == 0 {
		f.ActionTimeoutMs = c.ActionTimeoutMs
	}
}
