package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags that come after its arguments in front of them, so
// `fastbrowser run scenarios/ --jobs 2` means what it says: urfave/cli v2 stops reading flags
// at the first argument and would take "--jobs" and "2" as two more files. Only flags the
// command defines move (with their value, unless they are boolean or written --name=value);
// anything after "--" stays an argument; an unknown "-x" moves too, so urfave/cli refuses it
// by name instead of opening a file called "-x".
func interspersed(commands []*cli.Command, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd, at := findCommand(commands, args[1]), 1 // at: the index of cmd's name in args
	for cmd != nil && len(cmd.Subcommands) > 0 && at+1 < len(args) {
		cmd, at = findCommand(cmd.Subcommands, args[at+1]), at+1 // `session open URL --headed`
	}
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, positional []string
	rest := args[at+1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			positional = append(positional, rest[i:]...)
			i = len(rest)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if takesValue[name] && !hasValue && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		default:
			positional = append(positional, a)
		}
	}
	return append(append(append([]string{}, args[:at+1]...), flags...), positional...)
}

func findCommand(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
