package registry

import (
	"fmt"
	"strconv"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// Config is a host's session configuration: fastbrowser.json's "session" block
// (docs/scenarios.md "Session config"), this project's form of the seed's
// agent_runtime.browser_session. It sets what an openSession leaves out and the most it may
// ask for. The zero value is the budgets' defaults and ceilings and no binding.
type Config struct {
	// BindingOrigins is the binding when `serve` is given no --binding-origin: ["*"] or
	// exact origins and domain entries (transport/policy).
	BindingOrigins []string `json:"bindingOrigins,omitempty"`
	// IdleTimeoutS is a session's idle timeout when its openSession names none (default
	// the sessionIdle budget's, 1800).
	IdleTimeoutS int `json:"idleTimeoutS,omitempty"`
	// RequestTimeoutMs bounds every request to a session, a whole batch being one (0:
	// each operation's own budget alone; at most the request budget's ceiling).
	RequestTimeoutMs int64 `json:"requestTimeoutMs,omitempty"`
	// PageText is every page_text's (observe's) budgets when neither the call nor the
	// session's openSession names them (each 0: the budgets' defaults).
	PageText *transport.PageTextBudgets `json:"pageText,omitempty"`
	// HandoffClasses end a batch with handoff_required when the session's openSession
	// names none (the classes are configuration: docs/protocol.md "Batches").
	HandoffClasses []string `json:"handoffClasses,omitempty"`
	// Ceilings are the most an openSession may ask for (each 0: the budgets' ceiling).
	Ceilings *Ceilings `json:"ceilings,omitempty"`
}

// Ceilings are the most a task may ask for in openSession; over one is budget_exceeded.
type Ceilings struct {
	IdleTimeoutS int                        `json:"idleTimeoutS,omitempty"`
	PageText     *transport.PageTextBudgets `json:"pageText,omitempty"`
}

// ConfigError is a refused Config: the field's path inside the session block and what
// was expected.
type ConfigError struct {
	Field    string
	Code     transport.Code // invalid_request, or budget_exceeded for a value over a ceiling
	Expected string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Expected }

// Check refuses a configuration that could not work, before anything is started: every
// value inside the budgets' bounds, every default inside its own ceiling.
func (c *Config) Check() error {
	if c == nil {
		return nil
	}
	if c.BindingOrigins != nil {
		if _, err := policy.Parse(c.BindingOrigins); err != nil {
			return &ConfigError{"bindingOrigins", transport.CodeInvalidRequest, "expected [\"*\"] or exact http(s) origins and *.domain entries: " + err.Error()}
		}
	}
	if err := checkSeconds("idleTimeoutS", c.IdleTimeoutS, c.idleCeiling()); err != nil {
		return err
	}
	if c.RequestTimeoutMs < 0 || time.Duration(c.RequestTimeoutMs)*time.Millisecond > budgets.Request().Ceiling {
		return &ConfigError{"requestTimeoutMs", transport.CodeBudgetExceeded, fmt.Sprintf("expected 0 to %d (the request budget's ceiling)", budgets.Request().Ceiling.Milliseconds())}
	}
	for i, class := range c.HandoffClasses {
		if class == "" {
			return &ConfigError{"handoffClasses[" + strconv.Itoa(i) + "]", transport.CodeInvalidRequest, "expected a page class such as \"login\""}
		}
	}
	if ce := c.Ceilings; ce != nil {
		if err := checkSeconds("ceilings.idleTimeoutS", ce.IdleTimeoutS, int(budgets.SessionIdle().Ceiling.Seconds())); err != nil {
			return err
		}
		if err := checkPageText("ceilings.pageText", ce.PageText, budgetPageText(true)); err != nil {
			return err
		}
	}
	return checkPageText("pageText", c.PageText, c.pageTextCeilings())
}

func checkSeconds(field string, s, ceiling int) error {
	if s < 0 || s > ceiling {
		return &ConfigError{field, transport.CodeBudgetExceeded, fmt.Sprintf("expected 0 to %d seconds", ceiling)}
	}
	return nil
}

func checkPageText(field string, p *transport.PageTextBudgets, ceiling transport.PageTextBudgets) error {
	if p == nil {
		return nil
	}
	for _, f := range []struct {
		name     string
		v, limit int
	}{{"maxNodes", p.MaxNodes, ceiling.MaxNodes}, {"maxDepth", p.MaxDepth, ceiling.MaxDepth}, {"maxTextChars", p.MaxTextChars, ceiling.MaxTextChars}} {
		if f.v < 0 || f.v > f.limit {
			return &ConfigError{field + "." + f.name, transport.CodeBudgetExceeded, fmt.Sprintf("expected 0 to %d", f.limit)}
		}
	}
	return nil
}

// budgetPageText is the budgets' own page_text limits: their defaults or their ceilings.
func budgetPageText(ceiling bool) transport.PageTextBudgets {
	n, d, t := budgets.OutlineNodes(), budgets.OutlineDepth(), budgets.OutlineTextChars()
	if ceiling {
		return transport.PageTextBudgets{MaxNodes: n.Ceiling, MaxDepth: d.Ceiling, MaxTextChars: t.Ceiling}
	}
	return transport.PageTextBudgets{MaxNodes: n.Default, MaxDepth: d.Default, MaxTextChars: t.Default}
}

// idleCeiling is the most idle time a session may ask for, in seconds.
func (c *Config) idleCeiling() int {
	if c != nil && c.Ceilings != nil && c.Ceilings.IdleTimeoutS > 0 {
		return c.Ceilings.IdleTimeoutS
	}
	return int(budgets.SessionIdle().Ceiling.Seconds())
}

// idleDefault is a session's idle timeout when its openSession names none.
func (c *Config) idleDefault() time.Duration {
	if c != nil && c.IdleTimeoutS > 0 {
		return time.Duration(c.IdleTimeoutS) * time.Second
	}
	return min(budgets.SessionIdle().Default, time.Duration(c.idleCeiling())*time.Second)
}

// pageTextCeilings are the most an openSession may ask for, field by field.
func (c *Config) pageTextCeilings() transport.PageTextBudgets {
	out := budgetPageText(true)
	if c == nil || c.Ceilings == nil || c.Ceilings.PageText == nil {
		return out
	}
	p := c.Ceilings.PageText
	for _, f := range []struct {
		dst *int
		v   int
	}{{&out.MaxNodes, p.MaxNodes}, {&out.MaxDepth, p.MaxDepth}, {&out.MaxTextChars, p.MaxTextChars}} {
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	return out
}

// pageTextDefault is the session's page_text budgets when its openSession names none: the
// config's, else the budgets' defaults, never over the config's ceilings (a field left 0
// is the budgets' default at observe).
func (c *Config) pageTextDefault() transport.PageTextBudgets {
	var out transport.PageTextBudgets
	if c != nil && c.PageText != nil {
		out = *c.PageText
	}
	def, ceil := budgetPageText(false), c.pageTextCeilings()
	for _, f := range []struct {
		dst       *int
		def, ceil int
	}{{&out.MaxNodes, def.MaxNodes, ceil.MaxNodes}, {&out.MaxDepth, def.MaxDepth, ceil.MaxDepth}, {&out.MaxTextChars, def.MaxTextChars, ceil.MaxTextChars}} {
		if *f.dst == 0 && f.ceil < f.def {
			*f.dst = f.ceil
		}
	}
	return out
}

// handoffDefault is the session's handoff classes when its openSession names none.
func (c *Config) handoffDefault() []string {
	if c == nil {
		return nil
	}
	return c.HandoffClasses
}

// requestTimeout bounds each call of a session (0: none beyond the operation's own).
func (c *Config) requestTimeout() time.Duration {
	if c == nil {
		return 0
	}
	return time.Duration(c.RequestTimeoutMs) * time.Millisecond
}
