package main

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageDocListsTheTable: main.go's package doc shows every
// command and subcommand of the table, and no command the table lacks.
func TestPackageDocListsTheTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	require.NoError(t, err)
	require.NotNil(t, f.Doc)
	var examples [][]string
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if words := strings.Fields(line); strings.HasPrefix(line, "\t") && len(words) > 1 && words[0] == "gatectl" {
			examples = append(examples, words[1:])
		}
	}
	require.NotEmpty(t, examples, "the package doc has no example lines (\"\\tgatectl ...\")")
	cli.walk(func(c *cmd) {
		if c == cli {
			return
		}
		path := c.path()
		assert.True(t, slices.ContainsFunc(examples, func(words []string) bool {
			return len(words) >= len(path) && slices.Equal(words[:len(path)], path)
		}), "main.go's package doc has no example of gatectl %s", strings.Join(path, " "))
	})
	for _, words := range examples {
		assert.NotNil(t, cli.sub(words[0]), "main.go's package doc shows gatectl %s, which is no command", words[0])
	}
}
