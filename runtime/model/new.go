package model

import (
	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// New checks cfg and returns its adapter. lookupEnv is asked for cfg.APIKeyEnv only, on each
// call (nil: os.LookupEnv); every key it returns is added to keys before it is used, so it is
// masked in everything the session writes.
func New(cfg Config, lookupEnv func(string) (string, bool), keys *secrets.Set) (Adapter, error) {
	return nil, transport.NewError("", transport.PhaseValidate, transport.CodeModelFailed, transport.RetryNever, transport.NotAttempted, "model adapters are not built yet")
}
