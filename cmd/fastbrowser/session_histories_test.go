package main

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// The seed's main promise: "keep exactly what worked as a step whose first run replays it".
// TestRandomHistoriesReplay builds 20 histories, each from its own seed, in sessions opened
// with a scripted model on a small portal (sign-in form that posts and redirects, a page that
// answers slowly, a popup, a search form, a page that changes after a click), mixing
// navigates, acts by outline ref, acts in words (the model is scripted with the ref the
// outline showed), submits, assertions and operations that fail. Each history is exported and
// replayed with `fastbrowser run` on a fresh browser with no model configured: every replay
// passes, and the model endpoint gets no request while they run.
func TestRandomHistoriesReplay(t *testing.T) {
	const histories = 20
	site := historySite(t)
	dir := t.TempDir()
	files := make([]string, histories)
	logs := make([][]string, histories)
	models := make([]*modeltest.Server, histories)
	requests := func() (n int) {
		for _, m := range models {
			if m != nil {
				n += len(m.Requests())
			}
		}
		return n
	}

	// The sessions are independent: two are built at a time (t.Parallel's default on two
	// cores), each in its own session with its own scripted model, so that two seeds never
	// take each other's scripted answers.
	t.Run("build", func(t *testing.T) {
		for i := range histories {
			seed := uint64(i + 1)
			t.Run(fmt.Sprintf("seed%02d", seed), func(t *testing.T) {
				t.Parallel()
				own := modeltest.Start(t)
				models[i] = own
				ownCfg := own.Config("openai", modelKeyEnv)
				s := newSessionCLI(t)
				h := &history{t: t, s: s, model: own, base: site, rng: rand.New(rand.NewPCG(seed, 27))}
				id, open := s.open(site+"/login", "--model", "openai:"+ownCfg.Model, "--model-base-url", ownCfg.BaseURL, "--model-api-key-env", modelKeyEnv)
				h.id, h.outline = id, open.str("outline")
				defer func() { logs[i] = h.log }()
				h.build(6 + h.rng.IntN(5))
				file := filepath.Join(dir, fmt.Sprintf("history-%02d.json", seed))
				_, ops := s.exportTo(id, file)
				if want := 1 + h.kept; len(ops) != want {
					t.Errorf("the export holds %d operations, want %d (the navigate and every operation done or skipped):\n%s", len(ops), want, strings.Join(h.log, "\n"))
				}
				files[i] = file
			})
		}
	})
	if t.Failed() {
		return
	}

	// One run replays every export, with no model configured anywhere; the model endpoint
	// the sessions used would see any request.
	before := requests()
	out := filepath.Join(dir, "results")
	cmd := exec.Command(newSessionCLI(t).bin, append([]string{"run", "--jobs", "2", "--out", out}, files...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, modelKeyEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	res, _ := cmd.CombinedOutput()
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	var rep scenario.Report
	if err == nil {
		err = json.Unmarshal(raw, &rep)
	}
	if err != nil {
		t.Fatalf("run: exit %d, no report (%v)\n%s", cmd.ProcessState.ExitCode(), err, res)
	}
	passed := 0
	for i, sc := range rep.Scenarios {
		if sc.Status == "passed" {
			passed++
			continue
		}
		exported, _ := os.ReadFile(files[i])
		t.Errorf("%s: %s\nhistory:\n%s\nexport:\n%s", sc.ID, sc.Status, strings.Join(logs[i], "\n"), exported)
	}
	if passed != histories || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("%d of %d exports replayed (run exit %d)\n%s", passed, histories, cmd.ProcessState.ExitCode(), res)
	}
	if n := requests() - before; n != 0 {
		t.Errorf("the replays made %d model requests, want none", n)
	}
}

// history builds one random history in session id, tracking which page it is on.
type history struct {
	t       *testing.T
	s       *sessionCLI
	model   *modeltest.Server
	base    string
	rng     *rand.Rand
	id      string
	page    string // the path of the page the session's selected tab shows
	outline string
	popups  int
	kept    int // operations done or skipped: what the export holds after its navigate
	log     []string
}

// build runs n random steps (a step may be several operations: a popup's wait and select).
func (h *history) build(n int) {
	h.page = "/login"
	for range n {
		if h.rng.IntN(7) == 0 {
			h.fail()
			continue
		}
		switch h.page {
		case "/login":
			h.login()
		case "/home":
			h.home()
		case "/orders":
			h.orders()
		case "/help":
			h.help()
		default: // /slow, /search
			h.pick(
				func() { h.assertText(map[string]string{"/slow": "Report ready", "/search": "Results for"}[h.page]) },
				func() { h.click("link", "Back home", "/home") },
				func() { h.navigate("/home") },
			)
		}
	}
}

func (h *history) pick(steps ...func()) { steps[h.rng.IntN(len(steps))]() }

func (h *history) login() {
	h.pick(
		func() {
			h.typeInto("textbox", "Username", "alice")
			h.typeInto("password", "Password", "hunter2-long")
			h.click("button", "Log in", "/home")
		},
		func() { h.assertText("Sign in") },
		func() { h.click("button", "Log in", "/home") }, // the form posts empty fields too
	)
}

func (h *history) home() {
	h.pick(
		func() { h.click("link", "Slow report", "/slow") },
		func() { h.navigate("/slow") },
		func() { h.click("link", "Orders", "/orders") },
		func() { h.navigate("/orders") },
		func() {
			h.typeInto("textbox", "Search", "lamps")
			h.click("button", "Go", "/search")
		},
		h.openHelp,
	)
}

func (h *history) orders() {
	h.pick(
		func() {
			h.click("button", "Refresh", "/orders")
			h.assertText("Refreshed")
		},
		func() { h.click("link", "Back home", "/home") },
		func() { h.navigate("/slow") },
	)
}

// openHelp clicks the button that opens the help popup, waits for it and selects it.
func (h *history) openHelp() {
	h.click("button", "Open help", "/home")
	h.popups++
	id := fmt.Sprintf("help%d", h.popups)
	h.op(fmt.Sprintf(`{"id":%q,"op":"waitPopup"}`, id), "")
	h.op(fmt.Sprintf(`{"op":"selectTab","request":{"tab":{"source":"operation","operation":{"id":%q},"result":"popup"}}}`, id), "/help")
}

func (h *history) help() {
	h.pick(
		func() {
			h.click("button", "Say thanks", "/help")
			h.assertText("Thanks!")
		},
		func() {
			id := fmt.Sprintf("help%d", h.popups)
			h.op(fmt.Sprintf(`{"op":"closeTab","request":{"tab":{"source":"operation","operation":{"id":%q},"result":"popup"}}}`, id), "")
			h.op(`{"op":"selectTab","request":{"tab":{"source":"initial","target":"selected"}}}`, "/home")
		},
	)
}

// fail runs an operation that fails: it is kept in the history and never exported.
func (h *history) fail() {
	op := `{"click":"e999"}`
	if h.rng.IntN(2) == 0 {
		op = `{"op":"assert","request":{"kind":"textContains","value":"Nothing here says this"},"timeout":300}`
	}
	r := h.s.do(h.id, op)
	h.log = append(h.log, fmt.Sprintf("%s → %s %s", op, r.str("status"), r.str("error", "cause")))
	if r.str("status") != sessions.StatusFailed {
		h.t.Fatalf("%s: want a failed operation, got exit %d\n%s", op, r.code, r.stdout)
	}
	h.outline = pageOutline(r)
}

// click clicks the element by its outline ref, or in words through the scripted model.
func (h *history) click(role, name, next string) {
	ref := h.ref(role, name)
	if h.rng.IntN(3) == 0 {
		h.model.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "click", "ref": ref}})
		h.words(fmt.Sprintf(`{"act":"Click the %s %s"}`, name, role), next)
		return
	}
	h.op(fmt.Sprintf(`{"click":%q}`, ref), next)
}

func (h *history) typeInto(role, name, text string) {
	ref := h.ref(role, name)
	if h.rng.IntN(3) == 0 {
		h.model.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "type", "ref": ref, "text": text}})
		h.words(fmt.Sprintf(`{"act":"Type %s into the %s field"}`, text, name), h.page)
		return
	}
	h.op(fmt.Sprintf(`{"type":{"into":%q,"text":%q}}`, ref, text), h.page)
}

func (h *history) assertText(text string) {
	h.op(fmt.Sprintf(`{"op":"assert","request":{"kind":"textContains","value":%q}}`, text), h.page)
}

func (h *history) navigate(path string) {
	h.op(fmt.Sprintf(`{"op":"navigate","request":{"url":%q}}`, h.base+path), path)
}

// words runs an act in words (the key in the do's environment only).
func (h *history) words(op, next string) {
	h.t.Helper()
	r := h.s.run(sessionCmdOpts{stdin: op, env: []string{modelKeyEnv + "=" + modelKey}}, "session", "do", h.id)
	h.done(op, r, next)
}

// op runs one operation that must be done; next is the page it leads to ("": unchanged).
func (h *history) op(op, next string) {
	h.t.Helper()
	h.done(op, h.s.do(h.id, op), next)
}

func (h *history) done(op string, r sessionRun, next string) {
	h.t.Helper()
	h.log = append(h.log, fmt.Sprintf("%s → %s", op, r.str("status")))
	if r.code != 0 || r.str("status") != sessions.StatusDone {
		h.t.Fatalf("%s: exit %d\n%s\nhistory so far:\n%s", op, r.code, r.stdout, strings.Join(h.log, "\n"))
	}
	h.kept++
	if next != "" {
		h.page = next
	}
	if got := pathOf(r.str("page", "url")); next != "" && got != next {
		h.t.Fatalf("%s: the page is %s, want %s\n%s", op, got, next, r.stdout)
	}
	h.outline = pageOutline(r)
}

// ref is the outline ref of the element with that role and name in the last outline.
func (h *history) ref(role, name string) string {
	h.t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(role) + ` \[?(e\d+)\]? "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(h.outline)
	if m == nil {
		h.t.Fatalf("no %s %q in the outline:\n%s", role, name, h.outline)
	}
	return m[1]
}

func pageOutline(r sessionRun) string { return r.str("page", "outline") }

func pathOf(u string) string {
	if i := strings.Index(u, "//"); i >= 0 {
		u = u[i+2:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// historySite is the portal the histories work: plain pages, a form that posts and
// redirects (303), a page that answers after 1.2 s, a popup and a page a click changes
// after a delay.
func historySite(t *testing.T) string {
	t.Helper()
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><main>%s</main></body></html>", title, body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Sign in", `<h1>Sign in</h1><form method="post" action="/login">
<label>Username <input name="user"></label> <label>Password <input type="password" name="pw"></label>
<button>Log in</button></form>`)
	})
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /home", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Home", `<h1>Home</h1><nav><a href="/slow">Slow report</a> <a href="/orders">Orders</a></nav>
<button onclick="window.open('/help')">Open help</button>
<form action="/search"><label>Search <input name="q"></label> <button>Go</button></form>`)
	})
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(1200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		page(w, "Report", `<h1>Report</h1><p>Report ready</p><a href="/home">Back home</a>`)
	})
	mux.HandleFunc("GET /orders", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Orders", `<h1>Orders</h1><p id="s">Stale</p>
<button onclick="setTimeout(() => { document.getElementById('s').textContent = 'Refreshed' }, 300)">Refresh</button>
<a href="/home">Back home</a>`)
	})
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Search", "<h1>Results for "+html.EscapeString(r.URL.Query().Get("q"))+`</h1><a href="/home">Back home</a>`)
	})
	mux.HandleFunc("GET /help", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Help", `<h1>Help</h1><p id="t"></p><button onclick="document.getElementById('t').textContent = 'Thanks!'">Say thanks</button>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}
