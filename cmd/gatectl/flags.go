package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// listFlag is a repeatable string flag: --env A --env B.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// secretFlag is --secret NAME=DEST, repeatable: each secret with the
// destinations it may be sent to, NAME again adding one. Names and
// destinations are checked where the grants are compiled, in their words.
type secretFlag map[string][]string

func (f *secretFlag) String() string { return strings.Join(secretPairs(*f), ",") }

func (f *secretFlag) Set(s string) error {
	name, dest, ok := strings.Cut(s, "=")
	if !ok || name == "" || dest == "" {
		if name == "" {
			name = "NAME"
		}
		return fmt.Errorf("bind the secret to where it may be sent, written as --dial and --http are: --secret %s=127.0.0.1:6379, --secret %s=https://api.example.com/v1/", name, name)
	}
	if *f == nil {
		*f = secretFlag{}
	}
	(*f)[name] = append((*f)[name], dest)
	return nil
}

// secretPairs writes a secrets grant as --secret takes it: NAME=DEST for
// each destination of each secret, by name.
func secretPairs(m map[string][]string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		for _, d := range m[name] {
			out = append(out, name+"="+d)
		}
	}
	return out
}

// printUsage prints a command's synopsis, the subcommands it does not
// show, and its flags to w.
func printUsage(fs *flag.FlagSet, synopsis string, w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n", synopsis)
	if subs := unshownSubcommands(fs.Name(), synopsis); subs != "" {
		fmt.Fprintf(w, "\nSubcommands:\n%s", subs)
	}
	fmt.Fprint(w, "\nFlags:\n")
	printFlags(fs, w)
}

// unshownSubcommands is the usage lines, as the top-level usage writes
// them, of the subcommands of the command called name (its flag set's
// name: "gatectl mcp") that its synopsis does not show already, so that
// a command's help names every command under it; "" when there are none.
func unshownSubcommands(name, synopsis string) string {
	var out strings.Builder
	cli.walk(func(c *cmd) {
		if c.title() != name {
			return
		}
		for _, s := range c.subs {
			if !strings.Contains(synopsis, s.title()) {
				out.WriteString(usageLines(s))
			}
		}
	})
	return out.String()
}

// flagNoteIndent is how far a flag's description is indented under it,
// and helpWidth the widest a line of help may be: a terminal's 80
// columns.
const (
	flagNoteIndent = 6
	helpWidth      = 80
)

// printFlags lists fs's flags as the flag package's PrintDefaults does
// (sorted, each with its value's name and default, its description on
// the lines under it), but written as they are written everywhere else,
// --json, a one-letter flag alone keeping one dash (-m, -v), and each
// description wrapped to helpWidth. The flag package still parses both
// -json and --json.
func printFlags(fs *flag.FlagSet, w io.Writer) {
	indent := strings.Repeat(" ", flagNoteIndent)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  " + flagSpelling(f.Name)
		if name != "" {
			line += " " + name
		}
		if def := shownDefault(f); def != "" {
			usage += " (default " + def + ")"
		}
		note := strings.ReplaceAll(wrap(usage, helpWidth-flagNoteIndent), "\n", "\n"+indent)
		fmt.Fprintf(w, "%s\n%s%s\n", line, indent, note)
	})
}

// flagSpelling is how help writes the flag called name: -m, --json.
func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// shownDefault is f's default as help shows it, or "" when it is its
// type's zero value (which goes without saying, as in PrintDefaults).
func shownDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
		return ""
	}
	if name, _ := flag.UnquoteUsage(f); name == "string" {
		return fmt.Sprintf("%q", f.DefValue) // a string flag's, as PrintDefaults quotes it
	}
	return f.DefValue
}

// command is one command's flags. Help that was asked for (-h, -help,
// --help) is an answer: it goes to stdout and the command exits 0. A
// usage mistake is an error: the message and the usage go to stderr and
// the command exits 2. The flag package alone sends both to one writer.
type command struct {
	*flag.FlagSet
	synopsis       string
	stdout, stderr io.Writer
}

func newCommand(name, synopsis string, stdout, stderr io.Writer) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse words the flag package's errors
	fs.Usage = func() {}     // parse prints it, knowing where to
	return &command{FlagSet: fs, synopsis: synopsis, stdout: stdout, stderr: stderr}
}

// parse parses flags and positional arguments in any order. When done is
// true the command is over and code is its exit code: help was printed
// (exitOK) or the flags were wrong (exitUsage).
func (c *command) parse(args []string) (positional []string, code int, done bool) {
	pos, err := parseInterleaved(c.FlagSet, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(c.FlagSet, c.synopsis, c.stdout)
		return nil, exitOK, true
	case err != nil:
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			c.unknownFlag(name)
			return nil, exitUsage, true
		}
		fmt.Fprintf(c.stderr, "%s: %s\n", c.Name(), respellFlags(err.Error()))
		printUsage(c.FlagSet, c.synopsis, c.stderr)
		return nil, exitUsage, true
	}
	return pos, exitOK, false
}

// flagInMessage matches a flag named in one of the flag package's errors
// ("flag needs an argument: -addr", "invalid value ... for flag -budget:"),
// compiled on the first usage error, not at every command's start.
var flagInMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(argument: |for flag )-([A-Za-z0-9][A-Za-z0-9_-]*)`)
})

// respellFlags writes the flags the flag package's error names as help
// writes them: --addr, -m.
func respellFlags(msg string) string {
	re := flagInMessage()
	return re.ReplaceAllStringFunc(msg, func(m string) string {
		sub := re.FindStringSubmatch(m)
		return sub[1] + flagSpelling(sub[2])
	})
}

// unknownFlag reports a flag the command does not have as a mistyped
// command is reported: one line naming the nearest flags, spelt as help
// spells them, and where the usage is.
func (c *command) unknownFlag(name string) {
	var known []string
	c.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
	hint := ""
	if near := closest(name, known); len(near) > 0 {
		for i, n := range near {
			near[i] = flagSpelling(n)
		}
		hint = "; did you mean " + strings.Join(near, ", ") + "?"
	}
	fmt.Fprintf(c.stderr, "%s: unknown flag %s%s\nRun %q for usage.\n", c.Name(), flagSpelling(name), hint, strings.Replace(c.Name(), "gatectl", "gatectl help", 1))
}

// parseNoArgs is parse for a command that takes flags only.
func (c *command) parseNoArgs(args []string) (code int, done bool) {
	pos, code, done := c.parse(args)
	if done {
		return code, true
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "%s: unexpected argument %q\n", c.Name(), pos[0])
		return exitUsage, true
	}
	return exitOK, false
}

// set reports whether the flag called name was given.
func (c *command) set(name string) bool {
	found := false
	c.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// parseInterleaved parses flags that may come before, between or after
// positional arguments (gatectl probe run x.wasm --env A), which the flag
// package alone stops at. "--" ends flag parsing.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
