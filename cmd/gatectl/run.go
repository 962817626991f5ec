package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/runtime"
)

// Exit codes shared by every command.
const (
	exitOK          = 0 // available, or the command did what was asked
	exitUnavailable = 1 // a probe answered "unavailable", or a check found a problem
	exitUsage       = 2 // bad flags, a bad file, a bad manifest
	exitProbeError  = 3 // a probe raised: trapped, overran, misused the ABI
)

// run is gatectl without the process around it, so tests drive it.
//
// Help that was asked for ("gatectl help [COMMAND]", "-h", "--help",
// "COMMAND -h") goes to stdout with exit 0, since it is the answer; a
// usage mistake goes to stderr with exit 2.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.call(args, stdout, stderr)
}

// cmd is a gatectl command, or a subcommand of one. Their tree, cli
// (commands.go), is the one list of what gatectl does: the top-level
// usage, the dispatch, "gatectl help", the completion scripts and the
// tests are all made from it, so a command added there is in all of them.
type cmd struct {
	// name selects it, as the word after "gatectl" or after its parent.
	name string
	// aliases select it too, and are listed nowhere: "--version".
	aliases []string
	// summary says what it does, in a few words: the note of its first
	// usage line unless that has its own, and its description in the
	// completion scripts that show one (zsh, fish).
	summary string
	// usage is its lines in the top-level usage.
	usage []usageLine
	// flags defines its flags on fs, with the same function its run binds
	// them with, so that completion offers every flag it parses.
	flags func(fs *flag.FlagSet)
	// subs are its subcommands, selected by the word after its name.
	subs []*cmd
	// args are the words its positional arguments may be, files says
	// they may be files, and names that they are names of the manifest's
	// (which: nameSet), which completion asks "gatectl __names" for:
	// what completion offers where they go.
	args  []string
	files bool
	names nameSet
	// values are, by flag name, the words a flag's value may be, which
	// completion offers instead of files.
	values map[string][]string
	// run runs it on the arguments after its name when they do not start
	// with a subcommand's name.
	run func(args []string, stdout, stderr io.Writer) int
	// daemon says it runs until stopped; it keeps Go's garbage collector
	// defaults instead of the one-shot settings (main.go).
	daemon bool
	// helpGolden is the file under testdata that pins its help, or ""
	// when the help asked of it is what it prints anyway (version).
	helpGolden string

	parent *cmd // set by link
}

// usageLine is a line of the top-level usage: "gatectl", the command's
// path, args, and note (the command's summary when "").
type usageLine struct{ args, note string }

// link sets the parent of every command under c, and returns c.
func (c *cmd) link() *cmd {
	for _, s := range c.subs {
		s.parent = c
		s.link()
	}
	return c
}

// path is the words that select c after "gatectl": "probe run".
func (c *cmd) path() []string {
	if c.parent == nil {
		return nil
	}
	return append(c.parent.path(), c.name)
}

// sub is c's subcommand selected by word, or nil.
func (c *cmd) sub(word string) *cmd {
	for _, s := range c.subs {
		if s.name == word || slices.Contains(s.aliases, word) {
			return s
		}
	}
	return nil
}

// call runs c on args, or the subcommand args start with. A command with
// subcommands takes no positional argument of its own, so a word there
// that names none of them is a mistyped command.
func (c *cmd) call(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if s := c.sub(args[0]); s != nil {
			return s.call(args[1:], stdout, stderr)
		}
		if len(c.subs) > 0 && !strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
			return c.unknown(c.title(), args[0], stderr)
		}
	}
	return c.run(args, stdout, stderr)
}

// title is how c's messages begin: "gatectl probe".
func (c *cmd) title() string {
	return strings.Join(append([]string{"gatectl"}, c.path()...), " ")
}

// unknown reports, as the command called who, that word names no
// subcommand of c, with the names closest to it and where the usage is,
// and returns exitUsage. The usage itself is not printed: it would push
// the one line that matters off the screen.
func (c *cmd) unknown(who, word string, stderr io.Writer) int {
	var known []string
	for _, s := range c.subs {
		known = append(known, s.name)
		for _, a := range s.aliases {
			if strings.HasPrefix(a, "--") && strings.HasPrefix(word, "-") {
				known = append(known, a)
			}
		}
	}
	hint := didYouMean(word, known)
	if hint == "" && len(known) <= 4 {
		hint = "; want " + quoteAll(known, " or ")
	}
	helpCmd := strings.Join(append([]string{"gatectl", "help"}, c.path()...), " ")
	fmt.Fprintf(stderr, "%s: unknown command %q%s\nRun %q for usage.\n", who, word, hint, helpCmd)
	return exitUsage
}

// walk calls f on c and on every command under it, a command before its
// subcommands, in the order of the table.
func (c *cmd) walk(f func(*cmd)) {
	f(c)
	for _, s := range c.subs {
		s.walk(f)
	}
}

// flagSet is c's flags, defined on a set of their own; nil when it has none.
func (c *cmd) flagSet() *flag.FlagSet {
	if c.flags == nil {
		return nil
	}
	fs := flag.NewFlagSet(strings.Join(append([]string{"gatectl"}, c.path()...), " "), flag.ContinueOnError)
	c.flags(fs)
	return fs
}

// flagsOf is the flags of a command whose flags a *F binds.
func flagsOf[F any, P interface {
	*F
	bind(*flag.FlagSet)
}]() func(*flag.FlagSet) {
	return func(fs *flag.FlagSet) { P(new(F)).bind(fs) }
}

// noCommand is gatectl without a command, which shows what it can do
// (the answer to a question nobody got wrong: stdout, exit 0), or with a
// flag it does not know.
func noCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	return cli.unknown("gatectl", args[0], stderr)
}

// help is "gatectl help [COMMAND [SUBCOMMAND]]": the usage, or what
// "gatectl COMMAND [SUBCOMMAND] -h" prints.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) { // "gatectl help help" too
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	if !slices.ContainsFunc(cli.subs, func(c *cmd) bool { return c.name == args[0] }) {
		return cli.unknown("gatectl help", args[0], stderr)
	}
	return run(append(slices.Clone(args), "-h"), stdout, stderr)
}

// versionCmd is "gatectl version": help asked of it is the version too.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !(len(args) == 1 && isHelp(args[0])) {
		fmt.Fprintf(stderr, "gatectl version: unexpected argument %q\n", args[0])
		return exitUsage
	}
	fmt.Fprintln(stdout, "gatectl", version())
	return exitOK
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// kindNoteColumn is where a standard probe's summary starts in the
// top-level usage.
const kindNoteColumn = 25

// topUsage is the top-level usage: every command's usage lines and the
// standard probe kinds, in lines of at most helpWidth columns.
func topUsage(root *cmd) string {
	var b strings.Builder
	b.WriteString("gatectl: decide which agent tools can run right now\n\nUsage:\n")
	b.WriteString(usageLines(root))
	b.WriteString("\nTARGET is a probe module (FILE.wasm) or a standard probe:\n")
	for _, k := range probes.Kinds() {
		b.WriteString(hanging("  "+k.Form(), k.Summary(), kindNoteColumn))
	}
	b.WriteString(`Options such as timeout_ms=N follow a protocol probe's target, in the same
argument (probes/README.md).

The manifest is -m, else $GATE_MANIFEST, else ./gate.toml.
Run "gatectl help COMMAND" or "gatectl COMMAND -h" for a command's flags.
Exit codes: 0 available, 1 unavailable, 2 bad input, 3 probe error.
`)
	return b.String()
}

// usageLines is the usage lines of c and the commands under it, in the
// order of the table, each with its note on the line under it as flags
// have theirs.
func usageLines(c *cmd) string {
	var b strings.Builder
	c.walk(func(c *cmd) {
		for _, u := range c.usage {
			command := strings.Join(append([]string{"gatectl"}, c.path()...), " ")
			// A synopsis too wide for the line goes on under its arguments.
			cont := strings.Repeat(" ", 2+len(command)+1)
			synopsis := "  " + command
			if args := strings.Join(strings.Fields(u.args), " "); args != "" {
				synopsis += " " + strings.ReplaceAll(wrap(args, helpWidth-len(cont)), "\n", "\n"+cont)
			}
			note := u.note
			if note == "" {
				note = c.summary
			}
			b.WriteString(hanging(synopsis, note, flagNoteIndent))
		}
	})
	return b.String()
}

// hanging lays out lead and note as a line of a list: note starts at
// column col, on lead's last line if that ends two columns short of it,
// else on the line under it, and wraps within helpWidth, its further
// lines indented to col.
func hanging(lead, note string, col int) string {
	last := lead[strings.LastIndexByte(lead, '\n')+1:]
	pad := strings.Repeat(" ", col)
	if n := utf8.RuneCountInString(last); n+2 <= col {
		lead += strings.Repeat(" ", col-n)
	} else {
		lead += "\n" + pad
	}
	return lead + strings.ReplaceAll(wrap(note, helpWidth-col), "\n", "\n"+pad) + "\n"
}

// probeUsage is "gatectl probe"'s help: its subcommands' lines of the
// top-level usage.
func probeUsage() string {
	return "Usage:\n" + usageLines(cli.sub("probe")) +
		"\nRun \"gatectl probe run -h\" or \"gatectl probe inspect -h\" for the flags.\n"
}

// runProbe is "gatectl probe" without a subcommand (the dispatch runs
// run and inspect).
func runProbe(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "gatectl probe: want a command\n\n%s", probeUsage())
		return exitUsage
	}
	if isHelp(args[0]) {
		if len(args) > 1 { // "gatectl probe help run" is "gatectl probe run -h"
			return run(append(append([]string{"probe"}, args[1:]...), "-h"), stdout, stderr)
		}
		fmt.Fprint(stdout, probeUsage())
		return exitOK
	}
	probe := cli.sub("probe")
	return probe.unknown(probe.title(), args[0], stderr)
}

// defaultCacheDir is where compiled probes are kept between runs:
// $GATE_CACHE_DIR, else the user's cache directory, the rule a host app's
// engine follows too (runtime.DefaultCacheDir). "" disables the cache.
func defaultCacheDir() string { return runtime.DefaultCacheDir() }

// compileTimeout, when set, bounds each probe module's compile in every
// command instead of the engine's default. It is a variable so that this
// package's tests, run on a loaded machine, can give a large Go-built
// probe longer: the bound itself is runtime's, and tested there.
var compileTimeout time.Duration

// newEngineConfig is the engine configuration every command starts from.
func newEngineConfig() runtime.EngineConfig {
	cfg := runtime.NewEngineConfig()
	if compileTimeout > 0 {
		cfg = cfg.WithCompileTimeout(compileTimeout)
	}
	return cfg
}
