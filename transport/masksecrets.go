package transport

import (
	"fmt"
	"strconv"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// OpMaskSecrets is the runtime's own operation to its worker (OpSpec.Internal).
const OpMaskSecrets = "maskSecrets"

// MaskSecrets hands the worker secret values to mask in page text before it cuts the text
// to a bound. The worker learns a secret an act types from the act itself; the runtime sends
// the others it holds (`serve --secret-env`, a scenario's server and hook env, a model's API
// key) this way, each once, before the next call whose result can carry page text. Without
// it a secret that straddles a cut would leave its head, which the runtime's scrub of whole
// secrets cannot recognise.
type MaskSecrets struct {
	op[MaskSecrets, MaskSecretsResult]
	Values []string `json:"values" required:"true"`
}

// MaskSecretsResult says how many distinct values the worker masks now.
type MaskSecretsResult struct {
	Egress
	Masking int `json:"masking"`
}

func (r MaskSecrets) Validate() error {
	if len(r.Values) == 0 {
		return Invalid(OpMaskSecrets, "request.values", "expected at least one secret value")
	}
	if len(r.Values) > budgets.MaskSecretValues {
		return Invalid(OpMaskSecrets, "request.values", "more than %d values; send the rest in another request", budgets.MaskSecretValues)
	}
	for i, v := range r.Values {
		if v == "" {
			return Invalid(OpMaskSecrets, "request.values["+strconv.Itoa(i)+"]", "expected a non-empty string")
		}
	}
	return nil
}

// String and GoString never print the values (a request printed in a log or a test failure
// must not carry them).
func (r MaskSecrets) String() string   { return fmt.Sprintf("maskSecrets{%d values}", len(r.Values)) }
func (r MaskSecrets) GoString() string { return r.String() }
