package transport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestMaskSecretsValidate: each refusal names the field, and neither a refusal nor the
// request printed shows a value.
func TestMaskSecretsValidate(t *testing.T) {
	many := make([]string, budgets.MaskSecretValues+1)
	for i := range many {
		many[i] = fmt.Sprintf("secret-%04d", i)
	}
	for _, c := range []struct {
		values []string
		path   string
	}{
		{nil, "request.values"},
		{[]string{"s3cret-value", ""}, "request.values[1]"},
		{many, "request.values"},
	} {
		err := Validate(&MaskSecrets{Values: c.values})
		oe := AsOperationError("", err)
		if oe == nil || oe.Code != CodeInvalidRequest || oe.Path != c.path || strings.Contains(oe.Message, "secret-") || strings.Contains(oe.Message, "s3cret") {
			t.Errorf("Validate(%d values) = %v, want invalid_request at %s", len(c.values), err, c.path)
		}
	}
	if err := Validate(&MaskSecrets{Values: many[:budgets.MaskSecretValues]}); err != nil {
		t.Errorf("Validate(%d values) = %v", budgets.MaskSecretValues, err)
	}
	req := &MaskSecrets{Values: []string{"s3cret-value"}}
	for _, s := range []string{fmt.Sprint(req), fmt.Sprintf("%v %+v %#v %s", req, req, req, *req)} {
		if strings.Contains(s, "s3cret") {
			t.Errorf("the request prints its value: %s", s)
		}
	}
}
