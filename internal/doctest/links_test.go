package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnchor(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Project structure", "project-structure"},
		{"What a compile costs (`BenchmarkCompileCost`, runtime)", "what-a-compile-costs-benchmarkcompilecost-runtime"},
		{"`gatectl probe run env:HOME` as a whole process", "gatectl-probe-run-envhome-as-a-whole-process"},
		{"The sandbox's bounds", "the-sandboxs-bounds"},
		{"Skills (`go test -run XXX -bench .`)", "skills-go-test--run-xxx--bench-"},
		{"From a flip to `notifications/tools/list_changed`", "from-a-flip-to-notificationstoolslist_changed"},
		{"Größe ändern", "größe-ändern"},
	} {
		t.Run(tt.heading, func(t *testing.T) { assert.Equal(t, tt.want, Anchor(tt.heading)) })
	}
}

const linkPage = "# Title\n" +
	"See [a](OTHER.md#a-heading), [b](#title), [c](dir/x.go) and [d](https://example.com/#x).\n" +
	"Not `[e](E.md)` in code, nor [f](mailto:x@y).\n" +
	"```\n[g](G.md)\n## Not a heading\n```\n" +
	"## Title\n" +
	"### Title ##\n" +
	"![h](img.png \"a title\")\n"

func TestLinks(t *testing.T) {
	p, err := Parse("p.md", []byte(linkPage))
	require.NoError(t, err)
	assert.Equal(t, []Link{
		{Line: 2, Target: "OTHER.md", Fragment: "a-heading"},
		{Line: 2, Target: "", Fragment: "title"},
		{Line: 2, Target: "dir/x.go"},
		{Line: 10, Target: "img.png"},
	}, p.Links())
}

func TestAnchors(t *testing.T) {
	p, err := Parse("p.md", []byte(linkPage))
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"title": true, "title-1": true, "title-2": true}, p.Anchors(),
		"a repeated heading is numbered, a heading inside a fenced block is none")
}
