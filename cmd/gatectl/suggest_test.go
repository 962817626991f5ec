package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	commands := []string{"check", "schema", "serve", "mcp", "skills", "doctor", "probe", "completion", "version", "help"}
	tests := []struct {
		word  string
		known []string
		want  []string
	}{
		{"chek", commands, []string{"check"}},
		{"CHECK", commands, []string{"check"}},
		{"serv", commands, []string{"serve"}},
		{"skils", commands, []string{"skills"}},
		{"compltion", commands, []string{"completion"}},
		{"comp", commands, []string{"completion"}},
		{"rn", []string{"run", "inspect"}, []string{"run"}},
		{"zzzzzz", commands, []string{}},
		{"", commands, []string{}},
		// Nearest first; a name that contains the word counts however far.
		{"web", []string{"search_web", "wed", "notify"}, []string{"wed", "search_web"}},
		// At most maxSuggestions, nearest kept.
		{"a", []string{"b", "c", "d", "e", "f", "g"}, []string{"b", "c", "d", "e", "f"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closest(tt.word, tt.known), "closest(%q)", tt.word)
	}
}

func TestDidYouMean(t *testing.T) {
	assert.Equal(t, `; did you mean "check"?`, didYouMean("chek", []string{"check", "schema"}))
	assert.Equal(t, `; did you mean "serve", "server"?`, didYouMean("serv", []string{"serve", "server"}))
	assert.Equal(t, "", didYouMean("zzzzzz", []string{"check"}))
	// What was typed is quoted, so a terminal does not act on it.
	assert.Equal(t, `; did you mean "a\x1b[2J"?`, didYouMean("a", []string{"a\x1b[2J"}))
}

// TestTypos: a misspelt command, subcommand, help topic or manifest name
// is one error line naming what was meant, then where the usage is
// (stderr, exit 2): never the whole usage, which would push the line that
// matters off the screen.
func TestTypos(t *testing.T) {
	checkManifest := filepath.Join("testdata", "check", "gate.toml")
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"chek"}, "gatectl: unknown command \"chek\"; did you mean \"check\"?\nRun \"gatectl help\" for usage.\n"},
		{[]string{"chek", "-m", "x.toml"}, "gatectl: unknown command \"chek\"; did you mean \"check\"?\nRun \"gatectl help\" for usage.\n"},
		{[]string{"--verison"}, "gatectl: unknown command \"--verison\"; did you mean \"--version\"?\nRun \"gatectl help\" for usage.\n"},
		{[]string{"zzzzzz"}, "gatectl: unknown command \"zzzzzz\"\nRun \"gatectl help\" for usage.\n"},
		{[]string{"help", "schem"}, "gatectl help: unknown command \"schem\"; did you mean \"schema\"?\nRun \"gatectl help\" for usage.\n"},
		{[]string{"probe", "rn"}, "gatectl probe: unknown command \"rn\"; did you mean \"run\"?\nRun \"gatectl help probe\" for usage.\n"},
		{[]string{"probe", "inspekt", "x.wasm"}, "gatectl probe: unknown command \"inspekt\"; did you mean \"inspect\"?\nRun \"gatectl help probe\" for usage.\n"},
		{[]string{"probe", "zzzzzz"}, "gatectl probe: unknown command \"zzzzzz\"; want \"run\" or \"inspect\"\nRun \"gatectl help probe\" for usage.\n"},
		{[]string{"skills", "promt"}, "gatectl skills: unknown command \"promt\"; did you mean \"prompt\"?\nRun \"gatectl help skills\" for usage.\n"},
		{[]string{"doctor", "skils"}, "gatectl doctor: unknown command \"skils\"; did you mean \"skills\"?\nRun \"gatectl help doctor\" for usage.\n"},
		{[]string{"check", "-m", checkManifest, "serch_web", "echo", "zzzzzzzzzzzz"},
			"gatectl check: " + checkManifest + " has no tool or server named \"serch_web\"; did you mean \"search_web\"?\n" +
				"gatectl check: " + checkManifest + " has no tool or server named \"zzzzzzzzzzzz\"; it has search_web, notify_team, cache_data, spin, echo, mcp:filesystem\n"},
		{[]string{"check", "-m", checkManifest, "mcp:filesystm"},
			"gatectl check: " + checkManifest + " has no tool or server named \"mcp:filesystm\"; did you mean \"mcp:filesystem\"?\n"},
		{[]string{"probe", "run", "-m", checkManifest, "--tool", "notify_tem"},
			"gatectl probe run: " + checkManifest + " has no tool or server named \"notify_tem\"; did you mean \"notify_team\"?\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := gatectl(t, tt.args...)
		assert.Equal(t, exitUsage, code, "gatectl %q", tt.args)
		assert.Empty(t, stdout, "gatectl %q", tt.args)
		assert.Equal(t, tt.stderr, stderr, "gatectl %q", tt.args)
	}
}
