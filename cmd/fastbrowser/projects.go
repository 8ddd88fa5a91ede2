package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// projectFlag is --project on run and validate.
func projectFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "project", Usage: "run only the run config's project `NAME` (repeatable; default: every project, each running the whole suite)"}
}

// varFlag is --var on run, validate and replay.
func varFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "var", Usage: "set the variable NAME that {\"var\": \"NAME\"} stands for, over the file's and the project's (`NAME=VALUE`, repeatable; not a secret)"}
}

// varsOf reads --var NAME=VALUE flags (nil: none); a malformed one is a usage error.
func varsOf(c *cli.Context) (map[string]string, error) {
	var vars map[string]string
	for _, s := range c.StringSlice("var") {
		name, value, err := scenario.ParseVarFlag(s)
		if err != nil {
			return nil, usageError("%v", err)
		}
		if vars == nil {
			vars = map[string]string{}
		}
		vars[name] = value
	}
	return vars, nil
}

// loadProjects loads files once per selected project (--project, default all; without
// projects, once), project by project as Playwright orders them. An unknown --project is a
// usage error (exit 2); refusals of files are returned to report like any other.
func loadProjects(c *cli.Context, files []string, over scenario.Overrides) ([]*scenario.Loaded, []error, error) {
	vars, err := varsOf(c)
	if err != nil {
		return nil, nil, err
	}
	projects, err := scenario.SelectProjects(over.Config, c.StringSlice("project"))
	if err != nil {
		return nil, nil, usageError("%v", err)
	}
	var loaded []*scenario.Loaded
	var errs []error
	over.Vars = vars
	for _, p := range projects {
		over.Project = p
		l, e := scenario.LoadAll(files, over)
		loaded, errs = append(loaded, l...), append(errs, e...)
	}
	return loaded, errs, nil
}
