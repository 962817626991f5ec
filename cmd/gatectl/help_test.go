package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpWays are ways of asking for a command's help beyond those every
// command takes (TestHelp), keyed by the command's path.
var helpWays = map[string][][]string{
	"check":         {{"check", "-m", "x.toml", "-h"}},
	"skills":        {{"skills", "help"}},
	"skills prompt": {{"skills", "prompt", "help"}, {"skills", "prompt", "-m", "x.toml", "--help"}},
	"doctor":        {{"doctor", "help"}, {"doctor", "help", "skills"}},
	"probe":         {{"probe", "help"}},
	"probe run":     {{"probe", "help", "run"}, {"probe", "run", "env:HOME", "--help"}},
	"help":          {{"help"}, {"-h"}, {"--help"}, {"-help"}, {"help", "help"}},
	"completion":    {{"completion", "help"}, {"completion", "bash", "-h"}},
}

// TestHelp: help that was asked for, in any of the ways people ask, is
// the answer (stdout, exit 0) and says the same thing every way; a usage
// mistake is an error (stderr, exit 2). Every command of the table is
// asked, as "help PATH", "PATH -h", "PATH --help" and "PATH -help" (and
// by each alias), and its help is pinned by its golden file; a command
// with flags lists exactly the flags its table entry defines, which are
// the flags completion offers.
func TestHelp(t *testing.T) {
	// probe run's --cache-dir default is shown; pin it.
	t.Setenv("GATE_CACHE_DIR", "/var/cache/gate")
	seen := map[string]bool{}
	asked := 0
	cli.walk(func(c *cmd) {
		if c == cli {
			return
		}
		path := c.path()
		key := strings.Join(path, " ")
		seen[key] = true
		ways := [][]string{append([]string{"help"}, path...)}
		for _, spelling := range append([]string{c.name}, c.aliases...) {
			for _, h := range []string{"-h", "--help", "-help"} {
				ways = append(ways, append(append(slices.Clone(path[:len(path)-1]), spelling), h))
			}
		}
		ways = append(ways, helpWays[key]...)
		t.Run(key, func(t *testing.T) {
			want := ""
			if c.helpGolden == "" {
				// Its help is what it prints when run.
				var stdout, stderr bytes.Buffer
				require.Equal(t, exitOK, run(path, &stdout, &stderr), "gatectl %s", key)
				want = stdout.String()
			}
			for i, args := range ways {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				assert.Equal(t, exitOK, code, "gatectl %s", strings.Join(args, " "))
				assert.Empty(t, stderr.String(), "gatectl %s", strings.Join(args, " "))
				switch {
				case c.helpGolden == "":
					assert.Equal(t, want, stdout.String(), "gatectl %s", strings.Join(args, " "))
				case i == 0:
					assertGolden(t, c.helpGolden, stdout.String())
					want = readGolden(t, c.helpGolden)
				default:
					assert.Equal(t, want, stdout.String(), "gatectl %s", strings.Join(args, " "))
				}
				asked++
			}
			if fs := c.flagSet(); fs != nil {
				var defaults strings.Builder
				printFlags(fs, &defaults)
				assert.True(t, strings.HasSuffix(want, "\n\nFlags:\n"+defaults.String()),
					"gatectl %s -h does not list the flags its table entry defines:\n%s\nwant them to be:\n%s", key, want, defaults.String())
			}
		})
	})
	for key := range helpWays {
		assert.True(t, seen[key], "helpWays names %q, which is no command", key)
	}
	assert.GreaterOrEqual(t, asked, 4*len(seen), "every command asked for help at least four ways")
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, exitOK, run(args, &stdout, &stderr), "gatectl %s", args[0])
		assert.Regexp(t, regexp.MustCompile(`^gatectl \S.*\n$`), stdout.String())
		assert.Empty(t, stderr.String())
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitUsage, run([]string{"version", "extra"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `unexpected argument "extra"`)
}

// TestUsageErrors: a mistake goes to stderr, exit 2, and nothing on
// stdout: a mistyped command or flag as one line with the nearest names,
// any other mistake with the usage.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"frob"}, `gatectl: unknown command "frob"`},
		{[]string{"help", "frob"}, `gatectl help: unknown command "frob"`},
		{[]string{"check", "--frob"}, "gatectl check: unknown flag --frob\nRun \"gatectl help check\" for usage.\n"},
		{[]string{"check", "-jsn"}, "gatectl check: unknown flag --jsn; did you mean --json?\n"},
		{[]string{"serve", "--addr"}, "gatectl serve: flag needs an argument: --addr\nUsage: gatectl serve"},
		{[]string{"probe", "run", "env:HOME", "--budget", "soon"}, "gatectl probe run: invalid value \"soon\" for flag --budget: "},
		{[]string{"schema", "extra"}, `gatectl schema: unexpected argument "extra"`},
		{[]string{"probe"}, "gatectl probe: want a command\n\nUsage:\n  gatectl probe run"},
		{[]string{"probe", "frob"}, `gatectl probe: unknown command "frob"; want "run" or "inspect"`},
		{[]string{"probe", "run", "--frob"}, "gatectl probe run: unknown flag --frob\nRun \"gatectl help probe run\" for usage.\n"},
		{[]string{"doctor"}, `gatectl doctor: want "skills"`},
		{[]string{"skills", "--deep"}, "gatectl skills: unknown flag --deep"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		assert.Equal(t, exitUsage, code, "gatectl %v", tt.args)
		assert.Empty(t, stdout.String(), "gatectl %v", tt.args)
		assert.Contains(t, stderr.String(), tt.stderr, "gatectl %v", tt.args)
	}
}

// TestHelpFitsEightyColumns: every line of every help golden, and of the
// top-level usage, fits an 80-column terminal.
func TestHelpFitsEightyColumns(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "help*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	texts := map[string]string{"usage": usage(), "probe usage": probeUsage()}
	for _, f := range files {
		texts[f] = readGolden(t, filepath.Base(f))
	}
	for name, text := range texts {
		for i, line := range strings.Split(text, "\n") {
			assert.LessOrEqual(t, utf8.RuneCountInString(line), helpWidth, "%s:%d is wider than %d columns:\n%s", name, i+1, helpWidth, line)
		}
	}
}

// TestFlagsHelpWritesTwoDashes: help writes a long flag with two dashes
// and a one-letter flag with one, and parsing takes either spelling.
func TestFlagsHelpWritesTwoDashes(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var f checkFlags
	f.bind(fs)
	var b strings.Builder
	printFlags(fs, &b)
	assert.Equal(t, "  --json\n      print the result as JSON (shape: docs/CLI.md)\n"+
		"  -m string\n      the manifest\n"+
		"  -v\n      log each probe's failures and grace decisions to stderr\n"+
		"  --wait DURATION\n      check again until every tool and server (or each NAME) is available, for\n      at most DURATION; exit 1 if one is not by then\n", b.String())

	for _, args := range [][]string{{"-json", "-m", "a"}, {"--json", "--m", "a"}, {"--json", "-m=a"}} {
		var f checkFlags
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		f.bind(fs)
		require.NoError(t, fs.Parse(args), "%q", args)
		assert.True(t, f.json, "%q", args)
		assert.Equal(t, "a", f.manifest, "%q", args)
	}
}

// TestHelpNamesSubcommands: the help of a command names every command
// under it, in its synopsis or in a list of its own.
func TestHelpNamesSubcommands(t *testing.T) {
	cli.walk(func(c *cmd) {
		if c == cli || len(c.subs) == 0 {
			return
		}
		path := strings.Join(c.path(), " ")
		var stdout, stderr bytes.Buffer
		require.Equal(t, exitOK, run(append(c.path(), "-h"), &stdout, &stderr), "gatectl %s -h: %s", path, stderr.String())
		for _, s := range c.subs {
			assert.Contains(t, stdout.String(), s.title(), "gatectl help %s does not name %s", path, s.title())
		}
	})
}
