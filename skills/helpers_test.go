package skills

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
)

// assertGolden compares got with testdata/golden/name, or rewrites it with
// -update.
func assertGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

// jsonOf marshals v indented, with a final newline.
func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	return append(b, '\n')
}

// parse parses a SKILL.md given as text, at /skills/<dir>/SKILL.md.
func parse(t testing.TB, dir, text string, opts ...parseOptions) (*Skill, *Report) {
	t.Helper()
	var o parseOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	return parseSkill(filepath.Join(string(filepath.Separator), "skills", dir, "SKILL.md"), []byte(text), o)
}

// mustParse parses a SKILL.md that must load.
func mustParse(t testing.TB, dir, text string, opts ...parseOptions) *Skill {
	t.Helper()
	s, rep := parse(t, dir, text, opts...)
	require.Nil(t, rep, "skipped: %v", rep)
	require.NotNil(t, s)
	return s
}

// frontmatter wraps YAML lines into a SKILL.md with a name and a
// description.
func frontmatter(lines ...string) string {
	return "---\nname: test-skill\ndescription: A test skill\n" + strings.Join(lines, "\n") + "\n---\nBody\n"
}

// reqOf parses the requirements of a frontmatter made of lines.
func reqOf(t testing.TB, lines ...string) Requirements {
	t.Helper()
	return mustParse(t, "test-skill", frontmatter(lines...)).Requirements
}

// writeSkill writes dir/SKILL.md (or another file name) under root.
func writeSkill(t testing.TB, root, dir, text string) string {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(dir), "SKILL.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// skillText is a minimal SKILL.md.
func skillText(name, description string, lines ...string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n" + strings.Join(lines, "\n") + "\n---\n"
}

// copyTree copies the directory src to dst, byte for byte.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	require.NoError(t, err)
}

// logRecorder is a slog handler that keeps every record as "LEVEL message".
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *logRecorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, rec.Level.String()+" "+rec.Message)
	return nil
}
func (r *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *logRecorder) WithGroup(string) slog.Handler      { return r }

func (r *logRecorder) Lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

func (r *logRecorder) Count(prefix string) int {
	n := 0
	for _, l := range r.Lines() {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func newRecorder() (*logRecorder, *slog.Logger) {
	r := &logRecorder{}
	return r, slog.New(r)
}
