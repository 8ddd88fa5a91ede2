package main

import (
	"reflect"
	"slices"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// What Validate (and the scenario parser) check of a field beyond its Go type, for the
// scenario schema: enums and bounds, each written with the list or the constant the check
// itself uses, so changing one changes the schema. Cross-field rules (which kind takes a
// target, a form's other fields empty) and patterns stay hand-written in the skeleton; a
// rule here must name a field its type has (generation fails otherwise).

// fieldRule narrows one field of one type.
type fieldRule struct {
	typ   reflect.Type
	field string
	apply func(n *object) *object
}

func rule[T any](field string, apply func(n *object) *object) fieldRule {
	return fieldRule{reflect.TypeFor[T](), field, apply}
}

var fieldRules = []fieldRule{
	rule[transport.Observe]("maxNodes", between(0, budgets.OutlineNodes().Ceiling)),
	rule[transport.Observe]("maxDepth", between(0, budgets.OutlineDepth().Ceiling)),
	rule[transport.Observe]("maxTextChars", between(0, budgets.OutlineTextChars().Ceiling)),

	rule[transport.Act]("action", oneOf(transport.ActActions...)),
	rule[transport.Act]("key", keyOrNone),
	rule[transport.Act]("files", items(1, budgets.UploadFiles, chars(1, budgets.UploadPathBytes))),
	rule[transport.Act]("dialog", is("dialogAnswer")),
	rule[transport.Act]("promptText", is("promptText")),

	rule[transport.Target]("ref", chars(0, budgets.TargetRefBytes)),
	rule[transport.Target]("role", chars(0, budgets.TargetRoleBytes)),
	rule[transport.Target]("testId", chars(0, budgets.TargetNameChars)),
	rule[transport.Target]("nth", between(-budgets.LocatorMatches, budgets.LocatorMatches-1)),
	rule[transport.Act]("button", oneOf(transport.MouseButtons...)),
	rule[transport.Act]("clickCount", between(0, 3)),
	rule[transport.Act]("modifiers", items(0, len(transport.Modifiers), oneOf(transport.Modifiers...))),

	rule[transport.Assert]("kind", oneOf(transport.AssertKinds...)),
	rule[transport.Assert]("timeoutMs", between(0, ms(budgets.Expect()))),
	rule[transport.Assert]("values", items(0, budgets.AssertListItems)),
	rule[transport.Assert]("name", chars(0, budgets.AssertNameChars)),
	rule[transport.StorageKey]("area", oneOf(transport.StorageLocal, transport.StorageSession)),
	rule[transport.StorageKey]("key", chars(1, budgets.StorageKeyChars)),
	rule[transport.Cell]("row", chars(0, budgets.AssertCellKeyChars)),
	rule[transport.Cell]("column", chars(0, budgets.AssertCellKeyChars)),

	rule[transport.TabSelect]("index", between(0, budgets.ListTabsMax-1)),

	rule[transport.Screenshot]("redaction", items(0, budgets.RedactionRules)),
	rule[transport.Screenshot]("budgetMs", between(0, ms(budgets.Screenshot()))),
	rule[transport.RedactionRule]("role", chars(0, budgets.RedactionRuleFieldChars)),
	rule[transport.RedactionRule]("name", chars(0, budgets.RedactionRuleFieldChars)),
	rule[transport.RedactionRule]("label", chars(0, budgets.RedactionRuleFieldChars)),

	rule[transport.Download]("timeoutMs", between(0, ms(budgets.Download()))),
	// "" is no load state given, as the decoder reads it (the request's rules then want
	// url or durationMs).
	rule[transport.Wait]("loadState", oneOf(append([]string{""}, transport.LoadStates...)...)),
	rule[transport.Wait]("durationMs", between(0, ms(budgets.Wait()))),
	rule[transport.Wait]("timeoutMs", between(0, ms(budgets.Wait()))),

	rule[transport.NarrowOriginPolicy]("origins", items(1, budgets.NarrowOrigins)),

	rule[transport.Task]("goal", chars(1, budgets.TaskGoalChars)),
	rule[transport.Task]("maxTurns", between(0, budgets.TaskTurns)),
	rule[transport.Task]("maxActions", between(0, budgets.TaskActions)),
	rule[transport.Task]("timeoutMs", between(0, ms(budgets.Task()))),
	rule[transport.Postcondition]("kind", oneOf(transport.PostconditionKinds...)),

	// extract's schema: Validate compiles it and wants an object at its top.
	rule[transport.Extract]("schema", typed("object")),
	rule[transport.Extract]("scope", chars(0, budgets.TargetRefBytes)),
	rule[transport.Extract]("timeoutMs", between(0, ms(budgets.Task()))),

	// A step's act is checked as an act: the act's rules, and only the actions whose
	// field a step has (a step has no files: no upload).
	rule[scenario.Step]("action", oneOf(stepActions()...)),
	rule[scenario.Step]("key", keyOrNone),
	rule[scenario.Step]("dialog", is("dialogAnswer")),
	rule[scenario.Step]("promptText", is("promptText")),

	// A condition is checked as the assertion it becomes.
	rule[scenario.When]("kind", oneOf(transport.AssertKinds...)),

	rule[scenario.TabRef]("result", oneOf(append([]string{""}, tabResults()...)...)),
	rule[scenario.TabRef]("index", between(0, budgets.ListTabsMax-1)),
	rule[scenario.OpRef]("index", atLeast(0)),
}

// ruleFor finds the rule of t's field name.
func ruleFor(t reflect.Type, name string) (int, fieldRule, bool) {
	for i, r := range fieldRules {
		if r.typ == t && r.field == name {
			return i, r, true
		}
	}
	return 0, fieldRule{}, false
}

// stepActions are act's actions a step can carry: those whose own field (ActFields) a Step
// has.
func stepActions() []string {
	var out []string
	for _, a := range transport.ActActions {
		if f := transport.ActFields[a]; f != "" {
			if _, ok := fieldOf(reflect.TypeFor[scenario.Step](), f); !ok {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// tabResults are the results a tab reference can name: the operation table's TabResult.
func tabResults() []string {
	var out []string
	for _, s := range transport.Ops() {
		if s.TabResult != "" {
			out = append(out, s.TabResult)
		}
	}
	return out
}

func ms(b budgets.Budget) int { return int(b.Ceiling.Milliseconds()) }

func between(lo, hi int) func(*object) *object {
	return func(n *object) *object { n.set("minimum", lo); n.set("maximum", hi); return n }
}

func atLeast(lo int) func(*object) *object {
	return func(n *object) *object { n.set("minimum", lo); return n }
}

// chars bounds a string's length in characters (Go's byte bounds are at least as long, so
// the schema is never the stricter).
func chars(lo, hi int) func(*object) *object {
	return func(n *object) *object {
		if lo > 0 {
			n.set("minLength", lo)
		}
		n.set("maxLength", hi)
		return n
	}
}

// items bounds an array's length, and narrows its items with each.
func items(lo, hi int, each ...func(*object) *object) func(*object) *object {
	return func(n *object) *object {
		if lo > 0 {
			n.set("minItems", lo)
		}
		n.set("maxItems", hi)
		for _, f := range each {
			n.set("items", f(n.getObj("items")))
		}
		return n
	}
}

func oneOf(values ...string) func(*object) *object {
	return func(n *object) *object {
		c := &object{}
		for _, m := range n.members {
			if m.key != "type" { // the enum says it
				c.set(m.key, m.val)
			}
		}
		c.set("enum", strs(slices.Clone(values)...))
		return c
	}
}

func typed(t string) func(*object) *object {
	return func(n *object) *object { n.set("type", t); return n }
}

// is: the field's values are a shared definition's (sharedDefs).
func is(def string) func(*object) *object {
	return func(*object) *object { return ref(def) }
}

// keyOrNone: press's key is a key (sharedDefs "key"); any other action leaves it "".
func keyOrNone(*object) *object {
	return obj("anyOf", []any{obj("const", ""), ref("key")})
}
