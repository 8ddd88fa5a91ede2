package transport

import (
	"reflect"

	"github.com/fastbrowser/fastbrowser/transport/names"
)

// The protocol schema's explicit rules (schema.go): the types whose JSON reflection cannot
// see. Each closed set lists its constants; TestSchemaEnumsListEveryConstant checks each list
// against the constants of its type declared in this package.
var typeRules = map[reflect.Type]func() *schemaNode{
	reflect.TypeFor[Code](): enumRule(CodeInvalidRequest, CodeBudgetExceeded, CodeTimeout, CodeOriginDenied,
		CodeEgressDenied, CodeTabNotFound, CodeStaleDocument, CodeElementNotFound, CodeElementAmbiguous,
		CodeElementNotActionable, CodeAssertionFailed, CodePostconditionFailed, CodeNavigationFailed, CodeTLSFailed,
		CodePageRefused, CodeHandoffRequired, CodeRedactionNotProven, CodeArtifactTooLarge, CodeWorkerCrashed,
		CodeProtocolError, CodeLaunchFailed, CodeBrowserCrashed, CodeSessionExpired, CodeSessionEnded,
		CodeSessionNotOwned, CodeSessionBusy, CodeSessionNotFound, CodeModelRequired, CodeModelFailed, CodeTaskRefused, CodeTaskBusy, CodeTaskStale, CodeTaskNotFound, CodeFixtureNotReady,
		CodeFixturePortInUse, CodeHookFailed, CodeCancelled, CodeInternal),
	reflect.TypeFor[Phase](): enumRule(PhaseValidate, PhasePolicy, PhaseDispatch, PhaseExecute, PhaseVerify,
		PhaseEvidence, PhaseTeardown),
	reflect.TypeFor[Retry]():         enumRule(RetrySafe, RetryUnsafe, RetryNever),
	reflect.TypeFor[MutationState](): enumRule(NotAttempted, Verified, Unknown),
	reflect.TypeFor[Posture]():       enumRule(PostureOK, PostureHandoffRequired, PostureEgressDenied, PostureFailed),
	// WaitMode's decoder takes exactly these two; leaving the field out is the default.
	reflect.TypeFor[WaitMode](): enumRule(WaitBounded, WaitNone),
	// AnyResult: a batch action's result, the result of the operation its verb is.
	reflect.TypeFor[AnyResult](): func() *schemaNode { return &schemaNode{Type: "object"} },
	// JSONValue: JSON the protocol carries through (extract's schema, which Validate checks,
	// and the data it maps): any value.
	reflect.TypeFor[JSONValue](): func() *schemaNode { return &schemaNode{} },
	// Text: a literal, or {"env":NAME} read from the executing process's environment.
	reflect.TypeFor[Text](): func() *schemaNode {
		env := &schemaNode{Type: "object", Properties: &properties{{"env", &schemaNode{Type: "string", Pattern: names.EnvNamePattern}}},
			Required: []string{"env"}, AdditionalProperties: false}
		return &schemaNode{OneOf: []*schemaNode{{Type: "string"}, env}}
	},
	// TextMatch: a string, or {"regex", "flags"?} (locator.go).
	reflect.TypeFor[TextMatch](): func() *schemaNode {
		re := &schemaNode{Type: "object", Properties: &properties{{"regex", &schemaNode{Type: "string"}},
			{"flags", &schemaNode{Type: "string", Enum: []string{"", "i"}}}}, Required: []string{"regex"}, AdditionalProperties: false}
		return &schemaNode{OneOf: []*schemaNode{{Type: "string"}, re}}
	},
	// ValueMatch: an assertion's expected value, a string or {"regex", "flags"?} (expect.go).
	reflect.TypeFor[ValueMatch](): func() *schemaNode {
		re := &schemaNode{Type: "object", Properties: &properties{{"regex", &schemaNode{Type: "string"}},
			{"flags", &schemaNode{Type: "string", Pattern: "^[imsu]*$"}}}, Required: []string{"regex"}, AdditionalProperties: false}
		return &schemaNode{OneOf: []*schemaNode{{Type: "string"}, re}}
	},
}

// enumRule is the rule of a closed set of strings.
func enumRule[T ~string](values ...T) func() *schemaNode {
	return func() *schemaNode {
		n := &schemaNode{Type: "string"}
		for _, v := range values {
			n.Enum = append(n.Enum, string(v))
		}
		return n
	}
}
