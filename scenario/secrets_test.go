package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// secretsScenario has a secret in the server's env, in each hook's env, in an act's text and
// in a step's text, and a step whose instruction is given.
func secretsScenario(t *testing.T, instruction string) *Loaded {
	t.Helper()
	cmd := func(name string) map[string]any {
		return map[string]any{"command": "/bin/true", "env": map[string]any{
			"PLAIN": "not a secret", "TOKEN": map[string]any{"env": name}}}
	}
	return load(t, map[string]any{
		"version": 1, "id": "secrets",
		"fixture": map[string]any{"baseUrl": "http://127.0.0.1:1", "server": map[string]any{
			"mode": "managed", "start": cmd("SERVER_SECRET"), "readiness": map[string]any{"url": "http://127.0.0.1:1/health"}}},
		"hooks": map[string]any{"setup": cmd("SETUP_SECRET"), "reset": cmd("RESET_SECRET"), "cleanup": cmd("CLEANUP_SECRET")},
		"operations": []any{
			map[string]any{"op": "act", "request": map[string]any{"action": "type", "target": map[string]any{"ref": "e1"}, "text": map[string]any{"env": "ACT_SECRET"}}},
			map[string]any{"op": "step", "step": map[string]any{"instruction": instruction, "action": "type",
				"text": map[string]any{"env": "STEP_SECRET"}, "postcondition": map[string]any{"kind": "text", "value": "Done"}}},
		},
	})
}

var allSecrets = map[string]string{
	"SERVER_SECRET": "server-s3cret", "SETUP_SECRET": "setup-s3cret", "RESET_SECRET": "reset-s3cret",
	"CLEANUP_SECRET": "cleanup-s3cret", "ACT_SECRET": "act-s3cret", "STEP_SECRET": "step-s3cret",
}

// lookupWith is allSecrets with name changed (ok false: unset).
func lookupWith(name, value string, ok bool) func(string) (string, bool) {
	return func(k string) (string, bool) {
		if k == name {
			return value, ok
		}
		v, found := allSecrets[k]
		return v, found
	}
}

// TestServerAndHookSecretsRegistered is item 5 of issue 16 at load: every {"env"} value of
// the server's and the hooks' env is a secret like typed text, registered before anything
// runs, and checked like it (unset, too short, inside the mask: refused with the field path).
func TestServerAndHookSecretsRegistered(t *testing.T) {
	l := secretsScenario(t, "Token")
	set := secrets.New()
	if err := RegisterSecrets(l, lookupWith("", "", false), set); err != nil {
		t.Fatal(err)
	}
	if n := set.Len(); n != len(allSecrets) {
		t.Errorf("%d secrets registered, want %d", n, len(allSecrets))
	}
	for name, v := range allSecrets {
		if got := set.Scrub("printed " + v); got != "printed "+secrets.Mask {
			t.Errorf("%s not masked: %q", name, got)
		}
	}
	if got := set.Scrub("not a secret"); got != "not a secret" {
		t.Errorf("a literal env value was registered: %q", got)
	}

	paths := map[string]string{
		"SERVER_SECRET": "fixture.server.start.env.TOKEN.env", "SETUP_SECRET": "hooks.setup.env.TOKEN.env",
		"RESET_SECRET": "hooks.reset.env.TOKEN.env", "CLEANUP_SECRET": "hooks.cleanup.env.TOKEN.env",
		"ACT_SECRET": "operations[0].request.text.env", "STEP_SECRET": "operations[1].step.text.env",
	}
	for name, path := range paths {
		for _, bad := range []struct {
			value string
			ok    bool
			says  string
		}{{"", false, "is not set"}, {"abc", true, "shorter than 4"}, {"cret", true, "inside the mask"}} {
			err := CheckSecrets(l, lookupWith(name, bad.value, bad.ok))
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Path != path || ve.Code != transport.CodeInvalidRequest || !strings.Contains(ve.Message, bad.says) {
				t.Errorf("%s = %q: %v, want %s at %s", name, bad.value, err, bad.says, path)
				continue
			}
			if bad.value != "" && strings.Contains(err.Error(), `"`+bad.value+`"`) || !strings.Contains(ve.Message, name) {
				t.Errorf("%s: message %q must name the variable, not the value", name, ve.Message)
			}
		}
	}
}

// TestInstructionHoldingSecretRefused: a step instruction that holds any secret's value (a
// server's, a hook's, a typed one; in any case) is refused at load with its path, without
// the value; validate's CheckInstructions refuses it too, and ignores unset secrets.
func TestInstructionHoldingSecretRefused(t *testing.T) {
	for name, v := range allSecrets {
		instr := "Click " + strings.ToUpper(v) + " now"
		l := secretsScenario(t, instr)
		for check, err := range map[string]error{
			"CheckSecrets":      CheckSecrets(l, lookupWith("", "", false)),
			"CheckInstructions": CheckInstructions(l, lookupWith("", "", false)),
		} {
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Path != "operations[1].step.instruction" || ve.Code != transport.CodeInvalidRequest {
				t.Errorf("%s with %s in the instruction: %v", check, name, err)
				continue
			}
			if strings.Contains(strings.ToLower(err.Error()), v) || !strings.Contains(ve.Message, name) {
				t.Errorf("%s: %q must name %s and not hold its value", check, err, name)
			}
		}
	}
	l := secretsScenario(t, "Token")
	if err := CheckInstructions(l, lookupWith("SERVER_SECRET", "", false)); err != nil {
		t.Errorf("validate refused an unset secret: %v", err)
	}
	if err := CheckSecrets(l, lookupWith("", "", false)); err != nil {
		t.Errorf("an instruction without a secret refused: %v", err)
	}
}
