package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// sessionCommand is `fastbrowser session open|do|describe|export|close|list` (docs/sessions.md):
// each subcommand is a short-lived client of the session's host process and prints one
// JSON object.
func sessionCommand(st *state) *cli.Command {
	sub := []*cli.Command{
		sessionOpenCommand(st),
		sessionDoCommand(st),
		sessionDescribeCommand(st),
		sessionExportCommand(st),
		sessionCloseCommand(st),
		sessionListCommand(st),
		sessionHostCommand(st),
	}
	for _, c := range sub {
		c.OnUsageError = onSessionUsageError(st)
	}
	return &cli.Command{
		Name:        "session",
		Usage:       "build a scenario interactively: one browser kept alive between separate commands, each printing one JSON object",
		UsageText:   "fastbrowser session open|do|describe|export|close|list …",
		Subcommands: sub,
		// Reached only when no subcommand matched: `session` alone shows the help; an
		// unknown subcommand is a usage error printed as the one JSON object.
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowSubcommandHelp(c)
			}
			return sessionFailure(st, sessionUsageError("unknown session command "+strconv.Quote(textclip.Clip(c.Args().First(), 32))+
				": expected open, do, describe, export, close or list"))
		},
	}
}

// sessionID is the command's one argument: the session id.
func sessionID(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", sessionUsageError("expected one argument: the session id (see `fastbrowser session list`)")
	}
	return c.Args().First(), nil
}

func sessionDoCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "do",
		Usage:     "run one operation, read from stdin, in the session; prints what it did and the page after it",
		UsageText: `echo '{"click":"e12"}' | fastbrowser session do ID`,
		Action: func(c *cli.Context) error {
			id, err := sessionID(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			if st.stdinIsTTY {
				// Reading a terminal would wait for as long as nobody types: refuse instead.
				return sessionFailure(st, sessionUsageError(`do reads one operation from stdin; pipe it in: echo '{"click":"e12"}' | fastbrowser session do ID`))
			}
			raw, err := io.ReadAll(io.LimitReader(st.stdin, budgets.SessionStdin+1))
			if err != nil {
				return sessionFailure(st, sessions.Errorf(sessions.CodeInvalidInput, "stdin could not be read"))
			}
			if len(raw) > budgets.SessionStdin {
				return sessionFailure(st, sessions.Errorf(sessions.CodeInvalidInput, "stdin holds more than %d bytes; do reads one operation", budgets.SessionStdin))
			}
			var op map[string]json.RawMessage
			if err := json.Unmarshal(raw, &op); err != nil || op == nil {
				return sessionFailure(st, sessions.Errorf(sessions.CodeInvalidInput, "stdin is not one JSON object (one operation: {\"op\":…} or a shorthand such as {\"click\":\"e12\"})"))
			}
			wd, err := os.Getwd()
			if err != nil {
				return sessionFailure(st, sessions.Errorf(sessions.CodeFailed, "the working directory cannot be read"))
			}
			_, d, rec, err := openSession(st, id)
			if err != nil {
				return sessionFailure(st, err)
			}
			// The session's record names the model's key variable, if any: its value is sent
			// with the operation's {"env"} values, read here, on each do.
			req := sessions.DoRequest{Operation: json.RawMessage(raw), Env: sessions.EnvValues(rec, raw, st.lookup()), Dir: wd}
			out, err := callHost(c.Context, st, d, rec, sessions.CallDo, req)
			if err != nil {
				return sessionFailure(st, err)
			}
			return printHostOutput(st, out)
		},
	}
}

func sessionDescribeCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show the page: its outline (--find TEXT keeps matching entries), its structure (--tree), a redacted screenshot (--screenshot)",
		UsageText: "fastbrowser session describe ID [--find TEXT] [--tree] [--screenshot]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "find", Usage: "keep only outline entries containing `TEXT` (case-insensitive), with the entries they sit in"},
			&cli.BoolFlag{Name: "tree", Usage: "also give the outline's structure as JSON (bounded like observe), for debugging"},
			&cli.BoolFlag{Name: "screenshot", Usage: "also save a redacted screenshot in the session's artifact store and give its path"},
		},
		Action: func(c *cli.Context) error {
			id, err := sessionID(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			req := sessions.DescribeRequest{Find: c.String("find"), Tree: c.Bool("tree"), Screenshot: c.Bool("screenshot")}
			return askHost(c, st, id, sessions.CallDescribe, req)
		},
	}
}

func sessionExportCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write the operations that succeeded or were skipped as a scenario file v1 that `fastbrowser run` replays",
		UsageText: "fastbrowser session export ID [--out FILE] [--skip N ...] [--id SCENARIO_ID]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the scenario file to `FILE` (default: inline in the JSON result, as \"scenario\")"},
			&cli.StringSliceFlag{Name: "skip", Usage: "leave out history operation `N` (repeat)"},
			&cli.StringFlag{Name: "id", Usage: "the scenario's `ID` (default session-<session id>)"},
		},
		Action: func(c *cli.Context) error {
			id, err := sessionID(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			req := sessions.ExportRequest{ID: c.String("id")}
			for _, s := range c.StringSlice("skip") {
				n, err := strconv.Atoi(s)
				if err != nil || n < 0 {
					return sessionFailure(st, sessionUsageError("--skip "+strconv.Quote(s)+": expected a history index (0, 1, …)"))
				}
				req.Skip = append(req.Skip, n)
			}
			_, d, rec, err := openSession(st, id)
			if err != nil {
				return sessionFailure(st, err)
			}
			var res sessions.ExportResult
			fromDisk := rec.State != sessions.StateOpen
			if !fromDisk {
				out, err := callHost(c.Context, st, d, rec, sessions.CallExport, req)
				switch {
				case ending(out, err):
					fromDisk = true // its history is whole on disk: export works on an ended session
				case err != nil:
					return sessionFailure(st, err)
				case json.Unmarshal(out, &res) != nil || res.Session == "":
					return printHostOutput(st, out) // the host's {"error"}
				}
			}
			if fromDisk {
				r, file, err := sessions.ExportSession(d, req)
				if err != nil {
					return sessionFailure(st, err)
				}
				res, res.File = *r, string(file)
			}
			file := []byte(res.File)
			res.File, res.Scenario = "", file
			if path := c.String("out"); path != "" {
				abs, err := filepath.Abs(path)
				if err != nil {
					return sessionFailure(st, sessions.Errorf(sessions.CodeInvalidInput, "--out: not a usable path"))
				}
				if err := writeScenarioFile(abs, file); err != nil {
					return sessionFailure(st, sessions.Errorf(sessions.CodeFailed, "--out %s: the file could not be written: %s", abs, err))
				}
				res.Out, res.Scenario = abs, nil
			}
			printJSON(st, res)
			return nil
		},
	}
}

// writeScenarioFile writes an exported file atomically, through the writer of the run's
// outputs: 0640, a file meant to be read, committed and run by its owner's group; it holds
// no secret.
func writeScenarioFile(path string, data []byte) error {
	return scenario.WriteOutputFile(path, data, artifacts.ModeGroup)
}

func sessionCloseCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "close",
		Usage:     "stop the session's browser and remove the session (--keep: keep its history for export and list)",
		UsageText: "fastbrowser session close ID [--keep]",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "keep", Usage: "end the session but keep its history for export and list (24 h)"}},
		Action: func(c *cli.Context) error {
			id, err := sessionID(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			_, d, rec, err := openSession(st, id)
			if err != nil {
				return sessionFailure(st, err)
			}
			keep := c.Bool("keep")
			if rec.State == sessions.StateOpen {
				out, err := callHost(c.Context, st, d, rec, sessions.CallClose, sessions.CloseRequest{Keep: keep})
				if err == nil && !ending(out, nil) {
					return printHostOutput(st, out)
				}
				// The session is ending by itself (idle, crash) or its host went away: once
				// the host is gone, close it as an ended session.
				awaitHostGone(d)
				if rec, err = d.Record(); err != nil {
					return sessionFailure(st, sessions.Errorf(sessions.CodeNotFound, "session %s is gone", id))
				}
			}
			if keep {
				printJSON(st, sessions.CloseResult{ID: id, State: sessions.StateEnded, Reason: rec.Reason})
				return nil
			}
			if err := d.Remove(); err != nil {
				return sessionFailure(st, sessions.Errorf(sessions.CodeFailed, "session %s could not be removed", id))
			}
			printJSON(st, sessions.CloseResult{ID: id, State: "removed"})
			return nil
		},
	}
}

func sessionListCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "every session in the state directory: id, state (and why it ended), URL, idle deadline, history length, profile",
		UsageText: "fastbrowser session list",
		Action: func(c *cli.Context) error {
			if c.NArg() != 0 {
				return sessionFailure(st, sessionUsageError("list takes no arguments"))
			}
			store, err := sessionStore(st)
			if err != nil {
				return sessionFailure(st, err)
			}
			recs, err := store.List()
			if err != nil {
				return sessionFailure(st, sessions.Errorf(sessions.CodeFailed, "the sessions could not be listed: %s", err))
			}
			printJSON(st, sessions.ListOf(recs))
			return nil
		},
	}
}

// ending: the host answered that its session has ended (it is stopping: idle, a crash), or
// the call found the session ended.
func ending(out json.RawMessage, err error) bool {
	if err != nil {
		return sessions.AsError(err).Code == sessions.CodeEnded
	}
	var probe struct {
		Error *sessions.ErrorBody `json:"error"`
	}
	return json.Unmarshal(out, &probe) == nil && probe.Error != nil && probe.Error.Code == sessions.CodeEnded
}

// awaitHostGone waits, bounded, for a session's host to finish ending (its browser
// stopping) and record why.
func awaitHostGone(d *sessions.Dir) {
	deadline := time.Now().Add(budgets.ProcessStopGrace().Ceiling)
	for d.HostAlive() && time.Now().Before(deadline) {
		time.Sleep(budgets.SessionSettlePoll)
	}
}

// askHost makes one call to session id's host and prints what it answered.
func askHost(c *cli.Context, st *state, id, op string, req any) error {
	_, d, rec, err := openSession(st, id)
	if err != nil {
		return sessionFailure(st, err)
	}
	out, err := callHost(c.Context, st, d, rec, op, req)
	if err != nil {
		return sessionFailure(st, err)
	}
	return printHostOutput(st, out)
}
