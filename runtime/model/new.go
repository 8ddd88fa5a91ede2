package model

import (
	"errors"
	"os"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// New checks cfg and returns its adapter. lookupEnv is asked for cfg.APIKeyEnv only, on each
// call (nil: os.LookupEnv); every key it returns is added to keys before it is used, so it is
// masked in everything the session writes.
func New(cfg Config, lookupEnv func(string) (string, bool), keys *secrets.Set) (Adapter, error) {
	if err := cfg.Check(); err != nil {
		var ce *ConfigError
		if !errors.As(err, &ce) {
			return nil, transport.Invalid("", "model", "expected a valid model configuration")
		}
		return nil, transport.Invalid("", "model."+ce.Field, "%s", ce.Expected)
	}
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	e := &endpoint{cfg: cfg, lookupEnv: lookupEnv, keys: keys, client: newClient()}
	if cfg.Provider == ProviderAnthropic {
		return &anthropicAdapter{e}, nil
	}
	return &openAIAdapter{e}, nil
}
