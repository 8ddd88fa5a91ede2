package runtime_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The combined task tests sign in on the fixture shop (its sign-in page, then its orders
// table) with a scripted model: the page, the sign-in and every decision are real.

const shopTestPassword = "shop-Combined-pw-4417"

// shopTask is a session on the fixture shop's sign-in page (reached by asking for the orders)
// with the scripted model, and the refs of the sign-in form.
type shopTask struct {
	rt                    transport.Caller
	srv                   *modeltest.Server
	user, password, logIn string
}

func openShopTask(t *testing.T) shopTask {
	t.Helper()
	t.Setenv(fixture.ShopPasswordEnv, shopTestPassword)
	site := httptest.NewServer(fixture.Handler())
	t.Cleanup(site.Close)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{taskAPIEnv: taskAPIKey, fixture.ShopPasswordEnv: shopTestPassword}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/shop/orders"}); err != nil {
		t.Fatal(err)
	}
	return shopTask{rt: rt, srv: srv, user: refFor(t, rt, "textbox", "Username"), password: refFor(t, rt, "password", "Password"), logIn: refFor(t, rt, "button", "Log in")}
}

// ordersSchema is the orders table as data.
const ordersSchema = `{"type":"object","properties":{"orders":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"customer":{"type":"string"},"status":{"type":"string"},"total":{"type":"string"}},"required":["id","customer","status","total"],"additionalProperties":false}}},"required":["orders"],"additionalProperties":false}`

// signInSteps type the user and the password (as its placeholder) and log in.
func (s shopTask) signInSteps() []modeltest.Step {
	return []modeltest.Step{
		{Tool: "act", Args: map[string]string{"action": "type", "ref": s.user, "text": fixture.ShopUser}},
		{Tool: "act", Args: map[string]string{"action": "type", "ref": s.password, "text": "%password%"}},
		{Tool: "act", Args: map[string]string{"action": "click", "ref": s.logIn}},
	}
}

// ordersExtract is the model's extract of the orders table, each value cited to the line of
// its row: the extract outline numbers main L1, the heading L2, the table L3, its header row
// L4 and the orders L5 on (the orders page's outline, as TestCombinedTaskSignsInAndExtracts
// checks through the result).
func ordersExtract() modeltest.Step {
	var orders []map[string]string
	cites := map[string]string{}
	for i, o := range fixture.ShopOrders {
		orders = append(orders, map[string]string{"id": o.ID, "customer": o.Customer, "status": o.Status, "total": o.Total})
		for _, k := range []string{"id", "customer", "status", "total"} {
			cites["/orders/"+strconv.Itoa(i)+"/"+k] = "L" + strconv.Itoa(5+i)
		}
	}
	return extractCall(map[string]any{"orders": orders}, cites)
}

func combinedTask(maxTurns int) transport.Task {
	return transport.Task{Goal: "Sign in as alice with %password% and read the orders table", MaxTurns: maxTurns,
		Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "Recent orders"},
		Variables:     map[string]*transport.Text{"password": transport.FromEnv(fixture.ShopPasswordEnv)},
		Extract:       &transport.TaskExtract{Schema: transport.JSONValue(ordersSchema)}}
}

// offeredTools are the tool names each recorded (OpenAI) request offered.
func offeredTools(t *testing.T, srv *modeltest.Server) [][]string {
	t.Helper()
	var out [][]string
	for i, r := range srv.Requests() {
		var body struct {
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		var names []string
		for _, tool := range body.Tools {
			names = append(names, tool.Function.Name)
		}
		out = append(out, names)
	}
	return out
}

// TestCombinedTaskSignsInAndExtracts: one task signs in on the shop (three actions, the
// password typed through its placeholder) and, once its postcondition holds, extracts the
// orders table: one budget, four turns, the model offered exactly locate, act and extract on
// every turn, and the data checked against the page.
func TestCombinedTaskSignsInAndExtracts(t *testing.T) {
	s := openShopTask(t)
	s.srv.Script(append(s.signInSteps(), ordersExtract())...)
	res, err := transport.Dispatch(bg, s.rt, combinedTask(0))
	if err != nil {
		t.Fatalf("combined task: %v", err)
	}
	if len(res.Turns) != 4 || len(res.Actions) != 3 || res.MutationState != transport.Verified {
		t.Fatalf("got %d turns, %d actions, %s; want 4, 3, verified: %+v", len(res.Turns), len(res.Actions), res.MutationState, res)
	}
	for i, want := range []string{"act", "act", "act", "extract"} {
		if rc := res.Turns[i]; rc.Tool != want || rc.Outcome != transport.OutcomeOK {
			t.Errorf("turn %d receipt %+v, want tool %s, ok", i+1, rc, want)
		}
	}
	var got struct{ Orders []fixture.ShopOrder }
	var rows struct {
		Orders []struct{ ID, Customer, Status, Total string }
	}
	if err := json.Unmarshal(res.Data, &rows); err != nil {
		t.Fatalf("data %s: %v", res.Data, err)
	}
	for _, o := range rows.Orders {
		got.Orders = append(got.Orders, fixture.ShopOrder{ID: o.ID, Customer: o.Customer, Status: o.Status, Total: o.Total})
	}
	if fmt.Sprint(got.Orders) != fmt.Sprint(fixture.ShopOrders) || len(res.Citations) != 4*len(fixture.ShopOrders) {
		t.Errorf("data %s with %d citations; want the fixture's orders, each value cited", res.Data, len(res.Citations))
	}
	for i, tools := range offeredTools(t, s.srv) {
		if strings.Join(tools, ",") != "locate,act,extract" {
			t.Errorf("request %d offered %v, want exactly locate, act, extract", i+1, tools)
		}
	}
	// The password was typed through its placeholder: the result reports its length only,
	// and no model request or output holds it.
	if n := res.Actions[1].Receipt.TypedLength; n == nil || *n != len(shopTestPassword) {
		t.Errorf("the password's action reports typed length %v, want %d", n, len(shopTestPassword))
	}
	raw, _ := json.Marshal(res)
	for _, r := range s.srv.Requests() {
		raw = append(raw, r.Body...)
	}
	if strings.Contains(string(raw), shopTestPassword) {
		t.Error("the password reached the result or a model request")
	}
}

// TestCombinedTaskOneBudget: the turns that signed in are the task's turns: with three, the
// postcondition holds after the third and no turn is left to extract, so the task ends
// budget_exceeded without a fourth model call, its three actions accounted.
func TestCombinedTaskOneBudget(t *testing.T) {
	s := openShopTask(t)
	s.srv.Script(append(s.signInSteps(), ordersExtract())...)
	_, err := transport.Dispatch(bg, s.rt, combinedTask(3))
	oe := transport.AsOperationError(transport.OpTask, err)
	if oe == nil || oe.Code != transport.CodeBudgetExceeded || len(oe.Actions) != 3 || oe.MutationState != transport.Unknown {
		t.Fatalf("got %v; want budget_exceeded with 3 actions and mutation unknown", err)
	}
	if n := len(s.srv.Requests()); n != 3 {
		t.Errorf("the model was called %d times, want 3 (no call past the budget)", n)
	}
}

// TestCombinedTaskPhaseRefusals: the phase is checked before anything is authorised:
// extract before the postcondition holds and act after it are refused, ending the task on
// that turn; a scope that is not an element's ref is refused too.
func TestCombinedTaskPhaseRefusals(t *testing.T) {
	cases := []struct {
		name    string
		steps   func(s shopTask) []modeltest.Step
		calls   int
		actions int
	}{
		{"extract before the postcondition", func(s shopTask) []modeltest.Step { return []modeltest.Step{ordersExtract()} }, 1, 0},
		{"act after the postcondition", func(s shopTask) []modeltest.Step {
			return append(s.signInSteps(), modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e4"}})
		}, 4, 3},
		{"scope not an element", func(s shopTask) []modeltest.Step {
			return append(s.signInSteps(), modeltest.Step{Tool: "extract", Args: map[string]string{"scope": "L3"}})
		}, 4, 3},
		{"no tool", func(s shopTask) []modeltest.Step { return []modeltest.Step{{Text: "all done"}} }, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := openShopTask(t)
			s.srv.Script(c.steps(s)...)
			_, err := transport.Dispatch(bg, s.rt, combinedTask(0))
			oe := transport.AsOperationError(transport.OpTask, err)
			if oe == nil || oe.Code != transport.CodeTaskRefused || len(oe.Actions) != c.actions {
				t.Fatalf("got %v; want task_refused with %d actions", err, c.actions)
			}
			if n := len(s.srv.Requests()); n != c.calls {
				t.Errorf("the model was called %d times, want %d", n, c.calls)
			}
			if c.actions == 0 && oe.MutationState != transport.NotAttempted {
				t.Errorf("mutation state %s, want not_attempted", oe.MutationState)
			}
		})
	}
}
