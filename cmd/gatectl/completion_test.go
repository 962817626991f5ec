package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
)

// TestCompletionGolden pins the script for each shell. zsh and fish are
// not on the test machines, so their scripts are checked here only; the
// bash script is also run (TestCompletionBash).
func TestCompletionGolden(t *testing.T) {
	for _, shell := range shellNames() {
		t.Run(shell, func(t *testing.T) {
			code, stdout, stderr := gatectl(t, "completion", shell)
			require.Equal(t, exitOK, code, stderr)
			assert.Empty(t, stderr)
			assertGolden(t, "completion."+shell, stdout)
		})
	}
}

// bashComplete sources script in bash, run in dir, and returns what
// _gatectl completes each line to. A line is COMP_WORDS: the words typed,
// the last the one under the cursor ("" to start a new word).
func bashComplete(t *testing.T, dir, script string, lines [][]string) [][]string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "the completion test needs bash")
	file := filepath.Join(t.TempDir(), "gatectl.bash")
	require.NoError(t, os.WriteFile(file, []byte(script), 0o644))
	const end = "::end::"
	var driver strings.Builder
	driver.WriteString("source " + shellQuote(file) + " || exit 9\n")
	for _, words := range lines {
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, shellQuote(w))
		}
		driver.WriteString("COMP_WORDS=(" + strings.Join(quoted, " ") + ")\n")
		driver.WriteString("COMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n")
		driver.WriteString("COMPREPLY=(stale)\n_gatectl\n")
		driver.WriteString(`for r in "${COMPREPLY[@]}"; do printf '%s\n' "$r"; done` + "\n")
		driver.WriteString("echo " + end + "\n")
	}
	c := exec.Command(bash, "--norc", "--noprofile", "-s")
	c.Dir = dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	c.Stdin = strings.NewReader(driver.String())
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	require.NoError(t, c.Run(), "bash: %s", stderr.String())
	assert.Empty(t, stderr.String(), "bash wrote to stderr")
	blocks := strings.Split(stdout.String(), end+"\n")
	require.Len(t, blocks, len(lines)+1, "bash printed:\n%s", stdout.String())
	var out [][]string
	for _, b := range blocks[:len(lines)] {
		out = append(out, strings.Fields(b))
	}
	return out
}

// TestCompletionBash runs the bash script: bash sources it, COMP_WORDS and
// COMP_CWORD are set as bash sets them, _gatectl is called, and COMPREPLY
// must hold the completions.
func TestCompletionBash(t *testing.T) {
	var script bytes.Buffer
	require.NoError(t, writeBash(&script, cli))
	dir := t.TempDir()
	for _, f := range []string{"gate.toml", "db.wasm", "notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "docs"), 0o755))

	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{"gatectl", ""}, subNames(cli.subs)},
		{[]string{"gatectl", "pro"}, []string{"probe"}},
		{[]string{"gatectl", "-"}, []string{"--version", "--help"}},
		{[]string{"gatectl", "probe", ""}, []string{"run", "inspect"}},
		{[]string{"gatectl", "probe", "run", "--t"}, []string{"--tls-ca", "--tool"}},
		{[]string{"gatectl", "probe", "inspect", "d"}, []string{"db.wasm", "docs"}},
		{[]string{"gatectl", "check", ""}, nil}, // NAME...: tools, not files (no gatectl on PATH here to ask)
		{[]string{"gatectl", "schema", "--format", ""}, []string{"openai", "anthropic", "mcp"}},
		{[]string{"gatectl", "schema", "-format", "a"}, []string{"anthropic"}},
		{[]string{"gatectl", "schema", "-m", "g"}, []string{"gate.toml"}},
		{[]string{"gatectl", "check", "-m", ""}, []string{"db.wasm", "docs", "gate.toml", "notes.txt"}},
		{[]string{"gatectl", "check", "--m", "g"}, []string{"gate.toml"}},
		{[]string{"gatectl", "skills", "--"}, []string{"--json", "--path"}},
		{[]string{"gatectl", "skills", "prompt", "--"}, []string{"--path"}},
		// A subcommand is only ever the word right after its command, as
		// run dispatches: here "prompt" is -m's value, and these are
		// skills' flags; and after any other word no subcommand is offered.
		{[]string{"gatectl", "skills", "-m", "prompt", "--j"}, []string{"--json"}},
		{[]string{"gatectl", "skills", "-m", "gate.toml", ""}, nil},
		{[]string{"gatectl", "probe", "frob", ""}, nil},
		{[]string{"gatectl", "check", "probe", ""}, nil},
		{[]string{"gatectl", "doctor", ""}, []string{"skills"}},
		{[]string{"gatectl", "doctor", "skills", "--re"}, []string{"--requirements"}},
		{[]string{"gatectl", "completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"gatectl", "completion", "z"}, []string{"zsh"}},
		{[]string{"gatectl", "help", "s"}, []string{"schema", "serve", "skills"}},
		{[]string{"gatectl", "frob", ""}, nil},
	}
	var lines [][]string
	for _, tt := range tests {
		lines = append(lines, tt.words)
	}
	// Every command of the table completes its own flags, read from the
	// flag set its entry defines, and only those.
	type flagCase struct {
		path string
		want []string
	}
	var flagCases []flagCase
	cli.walk(func(c *cmd) {
		fs := c.flagSet()
		if fs == nil {
			return
		}
		var want []string
		fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) == 1 {
				want = append(want, "-"+f.Name)
			} else {
				want = append(want, "--"+f.Name)
			}
		})
		flagCases = append(flagCases, flagCase{strings.Join(c.path(), " "), want})
		lines = append(lines, append(append([]string{"gatectl"}, c.path()...), "-"))
	})
	require.NotEmpty(t, flagCases)

	got := bashComplete(t, dir, script.String(), lines)
	for i, tt := range tests {
		assert.ElementsMatch(t, tt.want, got[i], "complete %q", strings.Join(tt.words, " "))
	}
	for i, fc := range flagCases {
		assert.ElementsMatch(t, fc.want, got[len(tests)+i], "complete \"gatectl %s -\"", fc.path)
	}
}

// TestCompletionReadsFlagSets: a flag a command's entry defines is
// completed in every shell with no change to the completion code.
func TestCompletionReadsFlagSets(t *testing.T) {
	root := (&cmd{name: "gatectl", subs: []*cmd{{
		name:    "frob",
		summary: "frobs",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("twiddle", false, "twiddle first")
			fs.String("knob", "", "turn `KNOB`")
		},
	}}}).link()
	for _, s := range completionShells {
		var b bytes.Buffer
		require.NoError(t, s.write(&b, root))
		assert.Contains(t, b.String(), "twiddle", s.name)
		assert.Contains(t, b.String(), "knob", s.name)
	}
	var script bytes.Buffer
	require.NoError(t, writeBash(&script, root))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "-knob.conf"), nil, 0o644))
	got := bashComplete(t, dir, script.String(), [][]string{
		{"gatectl", "frob", "-"},
		{"gatectl", "frob", "--knob", "-"}, // --knob's value: a file, not a flag
		{"gatectl", "frob", "--twiddle", "-"},
	})
	assert.ElementsMatch(t, []string{"--knob", "--twiddle"}, got[0])
	assert.ElementsMatch(t, []string{"-knob.conf"}, got[1])
	assert.ElementsMatch(t, []string{"--knob", "--twiddle"}, got[2])
}

// TestCompletionUsageErrors: no shell, an unknown one, or more than one
// is a usage error, with the usage on stderr.
func TestCompletionUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, exitUsage, run(args, &stdout, &stderr), "gatectl %v", args)
		assert.Empty(t, stdout.String(), "gatectl %v", args)
		assert.Contains(t, stderr.String(), "gatectl completion: want one of bash, zsh, fish, got ", "gatectl %v", args)
		assert.Contains(t, stderr.String(), "Usage: gatectl completion bash|zsh|fish", "gatectl %v", args)
	}
}

// TestCompletionDocCommands: each way docs/CLI.md shows to install the
// completion runs "gatectl completion SHELL" for a shell gatectl has,
// and the page shows no output for it (the script goes to the shell or
// a file); each shell gatectl has is shown. Bash runs the script in
// TestCompletionBash.
func TestCompletionDocCommands(t *testing.T) {
	_, blocks := doctest.Marked(t, filepath.Join("..", "..", "docs", "CLI.md"))
	shown := map[string]bool{}
	completion := regexp.MustCompile(`gatectl completion (\w+)`)
	for _, b := range blocks {
		for _, s := range b.Steps {
			m := completion.FindStringSubmatch(s.Command)
			if !assert.NotNil(t, m, "line %d: %s runs no gatectl completion", s.Line, s.Command) {
				continue
			}
			assert.Empty(t, s.Output, "line %d: the command prints nothing", s.Line)
			code, stdout, stderr := gatectl(t, "completion", m[1])
			assert.Equal(t, exitOK, code, "line %d: %s", s.Line, stderr)
			assert.Contains(t, stdout, "gatectl", "line %d", s.Line)
			shown[m[1]] = true
		}
	}
	for _, shell := range shellNames() {
		assert.True(t, shown[shell], "docs/CLI.md shows no way to install the %s completion", shell)
	}
}

// namesManifest is the manifest of the names tests: a tool whose probe
// module is not there (completion reads the manifest only, and never
// compiles a probe), a server and its rules.
const namesManifest = `[[tools]]
name = "search_web"
probe = "env:SERP_API_KEY"

[[tools]]
name = "send_mail"
probe = { module = "not-built.wasm" }

[[servers]]
name = "notes"
url = "http://127.0.0.1:1/mcp"

[[servers.tools]]
name = "delete_note"
probe = "env:NOTES_ALLOW_DELETE"

[[servers.tools]]
match = "search_*"
probe = "env:SERP_API_KEY"
`

// TestNamesCommand: gatectl __names prints, one a line, every name check
// takes, from the manifest alone; it refuses -m - without reading
// standard input, and is in no usage, help or completion.
func TestNamesCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.toml")
	writeFile(t, path, namesManifest)
	names := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := namesCmd(args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, stdout, stderr := names("-m", path)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "search_web\nsend_mail\nnotes\nnotes#delete_note\nnotes#search_*\n", stdout)

	code, stdout, stderr = names("-m", path, "check")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "search_web\nsend_mail\nnotes\nnotes#delete_note\nnotes#search_*\n", stdout, "check's names, as without a set")
	code, stdout, stderr = names("servers", "-m", path)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "notes\n", stdout, "the MCP servers: [[servers]] with command or url")
	code, stdout, stderr = names("-m", path, "tols")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `gatectl __names: "tols" is no set of names: want check or servers`)

	t.Chdir(dir)
	t.Setenv("GATE_MANIFEST", "")
	code, stdout, _ = names()
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "search_web\n", "./gate.toml by default")

	endless := &countingReader{}
	withStdin(t, endless)
	code, stdout, stderr = names("-m", "-")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "gatectl __names: -m - (the manifest on standard input) is not for this command")
	assert.Zero(t, endless.n)

	writeFile(t, path, "[[tools]]\nname = 1\n")
	code, stdout, stderr = names("-m", path)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, path+":2:")

	assert.NotContains(t, usage(), namesCommand)
	assert.NotContains(t, subNames(cli.subs), namesCommand)
	code, _, stderr = gatectl(t, namesCommand)
	assert.Equal(t, exitUsage, code, "not a command of the table")
	assert.Contains(t, stderr, `unknown command "__names"`)
}

// TestCompletionNames runs the bash script with the gatectl built from
// this tree on PATH: check's NAMEs are the names of the manifest the
// words typed name (-m, in each of its spellings), else of ./gate.toml;
// nothing, and nothing on the terminal, when that manifest is standard
// input, missing or bad.
func TestCompletionNames(t *testing.T) {
	bin := buildGatectlBinary(t)
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GATE_MANIFEST", "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "gate.toml"), namesManifest)
	writeFile(t, filepath.Join(dir, "other.toml"), "[[tools]]\nname = \"other_tool\"\n")
	writeFile(t, filepath.Join(dir, "bad.toml"), "[[tools]]\nname = 1\n")
	var script bytes.Buffer
	require.NoError(t, writeBash(&script, cli))

	all := []string{"search_web", "send_mail", "notes", "notes#delete_note", "notes#search_*"}
	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{"gatectl", "check", ""}, all},
		{[]string{"gatectl", "check", "se"}, []string{"search_web", "send_mail"}},
		{[]string{"gatectl", "check", "search_web", "no"}, []string{"notes", "notes#delete_note", "notes#search_*"}},
		{[]string{"gatectl", "check", "--json", "-m", "other.toml", ""}, []string{"other_tool"}},
		{[]string{"gatectl", "check", "--m", "other.toml", "o"}, []string{"other_tool"}},
		{[]string{"gatectl", "check", "-m=other.toml", ""}, []string{"other_tool"}},
		{[]string{"gatectl", "check", "-m", "=", "other.toml", ""}, []string{"other_tool"}}, // as COMP_WORDBREAKS splits -m=other.toml
		{[]string{"gatectl", "check", "-m", "-", ""}, nil},
		{[]string{"gatectl", "check", "-m", "missing.toml", ""}, nil},
		{[]string{"gatectl", "check", "-m", "bad.toml", ""}, nil},
		{[]string{"gatectl", "schema", ""}, nil},                     // schema takes no NAME
		{[]string{"gatectl", "mcp", "check", ""}, []string{"notes"}}, // its MCP servers only
		{[]string{"gatectl", "mcp", "check", "--json", "-m", "other.toml", ""}, nil},
		{[]string{"gatectl", "mcp", "lock", "n"}, []string{"notes"}},
	}
	var lines [][]string
	for _, tt := range tests {
		lines = append(lines, tt.words)
	}
	got := bashComplete(t, dir, script.String(), lines)
	for i, tt := range tests {
		assert.ElementsMatch(t, tt.want, got[i], "complete %q", strings.Join(tt.words, " "))
	}
}
