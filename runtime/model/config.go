package model

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// envName is a POSIX environment variable name.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ConfigError is a refusal of a model configuration: the field (relative to the "model"
// object: "provider", "baseUrl", …) and what was expected.
type ConfigError struct {
	Field    string
	Expected string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Expected }

// Check refuses a configuration that could not work, before anything is started.
func (c Config) Check() error {
	switch c.Provider {
	case ProviderOpenAI, ProviderAnthropic:
	default:
		return &ConfigError{"provider", fmt.Sprintf("expected %q or %q", ProviderOpenAI, ProviderAnthropic)}
	}
	if strings.TrimSpace(c.Model) == "" || len(c.Model) > 200 {
		return &ConfigError{"model", "expected the model's name (1–200 bytes), such as gpt-4o-mini or llama3.1:8b"}
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return &ConfigError{"baseUrl", "expected an http(s) URL without credentials, query or fragment, such as http://127.0.0.1:11434/v1"}
		}
	}
	if c.APIKeyEnv != "" && !envName.MatchString(c.APIKeyEnv) {
		return &ConfigError{"apiKeyEnv", "expected an environment variable's name, such as OPENAI_API_KEY"}
	}
	return nil
}

// ParseFlag reads `--model PROVIDER:MODEL` (the first colon splits: openai:llama3.1:8b is
// provider openai, model llama3.1:8b) with the optional --model-base-url and
// --model-api-key-env values, and checks the result.
func ParseFlag(spec, baseURL, apiKeyEnv string) (Config, error) {
	provider, name, ok := strings.Cut(spec, ":")
	if !ok {
		return Config{}, &ConfigError{"provider", "expected PROVIDER:MODEL, such as openai:gpt-4o-mini or anthropic:claude-sonnet-4-5"}
	}
	c := Config{Provider: provider, Model: name, BaseURL: baseURL, APIKeyEnv: apiKeyEnv}
	return c, c.Check()
}
