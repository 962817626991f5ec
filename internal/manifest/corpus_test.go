package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/manifests")

// corpus lists the manifests of testdata/manifests/DIR, with forward
// slashes so that the file names in messages match on every OS.
func corpus(t testing.TB, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "manifests", dir, "*.toml"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for i, n := range names {
		names[i] = filepath.ToSlash(n)
	}
	return names
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden file: run go test ./internal/manifest -update")
	assert.Equal(t, string(want), string(got), "%s differs: if the change is right, run go test ./internal/manifest -update", path)
}

func TestValidCorpus(t *testing.T) {
	for _, file := range corpus(t, "valid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			m, err := Load(file)
			require.NoError(t, err, "%+v", err)
			require.NotNil(t, m)
			golden(t, strings.TrimSuffix(file, ".toml")+".golden.json", goldenJSON(t, m))

			// Every parsed manifest marshals to JSON: the runtime sends
			// Parameters to model APIs as they are.
			for _, tool := range m.Tools {
				_, err := json.Marshal(tool.Parameters)
				assert.NoError(t, err, tool.Name)
			}
		})
	}
}

func TestInvalidCorpus(t *testing.T) {
	for _, file := range corpus(t, "invalid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			m, err := Load(file)
			require.Error(t, err)
			assert.Nil(t, m)
			var errs Errors
			require.True(t, errors.As(err, &errs), "%T", err)
			require.NotEmpty(t, errs)
			for i, e := range errs {
				assert.Equal(t, file, e.Pos.File)
				assert.Positive(t, e.Pos.Line, e.Error())
				assert.Positive(t, e.Pos.Col, e.Error())
				assert.NotEmpty(t, e.Msg)
				assert.NotEmpty(t, e.Detail())
				if i > 0 {
					prev := errs[i-1].Pos
					assert.False(t, e.Pos.Line < prev.Line || e.Pos.Line == prev.Line && e.Pos.Col < prev.Col,
						"not in file order: %v after %v", e.Pos, prev)
				}
			}
			// Every problem, not just the MaxShown that the string forms
			// show.
			var all strings.Builder
			for _, e := range errs {
				fmt.Fprintf(&all, "%+v\n", e)
			}
			golden(t, strings.TrimSuffix(file, ".toml")+".err", []byte(all.String()))
		})
	}
}

// TestIndexKnowsEveryPath checks that every key and value the checker
// looks at was found by the position index: a miss would put a problem
// at 1:1 instead of where it is.
func TestIndexKnowsEveryPath(t *testing.T) {
	for _, file := range append(corpus(t, "valid"), corpus(t, "invalid")...) {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		_, _, misses := parse(file, src)
		assert.Empty(t, misses, file)
	}
}

func TestTypeErrorInFirstTool(t *testing.T) {
	// BurntSushi/toml reports this on the last [[tools]] with the same
	// key; the point of go-toml's parser here is to get it right.
	_, err := Load("testdata/manifests/invalid/type_first_tool.toml")
	var errs Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 2)
	assert.Equal(t, "tools[0].description", errs[0].Key)
	assert.Equal(t, 5, errs[0].Pos.Line)
	assert.Equal(t, 15, errs[0].Pos.Col)
	assert.Equal(t, "tools[0].probe.budget", errs[1].Key)
	assert.Equal(t, 6, errs[1].Pos.Line)
}

// goldenJSON renders a manifest for a golden file: paths under testdata
// relative to it (so the files do not depend on where the repository
// is), durations as strings (so that people can read them).
func goldenJSON(t *testing.T, m *Manifest) []byte {
	t.Helper()
	root, err := filepath.Abs("testdata")
	require.NoError(t, err)
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && filepath.IsAbs(p) && !strings.HasPrefix(r, "..") {
			return "$TESTDATA/" + filepath.ToSlash(r)
		}
		return p
	}
	c := *m
	c.Path = rel(c.Path)
	if c.Runtime.CacheDir != nil {
		s := rel(*c.Runtime.CacheDir)
		c.Runtime.CacheDir = &s
	}
	c.Runtime.Python = rel(c.Runtime.Python)
	if c.Skills.Paths != nil {
		c.Skills.Paths = append([]string{}, c.Skills.Paths...)
		for i, p := range c.Skills.Paths {
			c.Skills.Paths[i] = rel(p)
		}
	}
	relProbe := func(p *Probe) *Probe {
		if p == nil {
			return nil
		}
		q := *p
		q.Module = rel(q.Module)
		if q.TLSCA != "" {
			q.TLSCA = rel(q.TLSCA)
		}
		return &q
	}
	c.Tools = append([]Tool(nil), c.Tools...)
	for i := range c.Tools {
		c.Tools[i].Probe = relProbe(c.Tools[i].Probe)
	}
	c.Servers = append([]Server(nil), c.Servers...)
	for i := range c.Servers {
		s := &c.Servers[i]
		s.Probe = relProbe(s.Probe)
		if s.Upstream != nil {
			u := *s.Upstream
			if len(u.Command) > 0 {
				u.Command = append([]string{rel(u.Command[0])}, u.Command[1:]...)
			}
			u.Tools = append([]UpstreamTool(nil), u.Tools...)
			for j := range u.Tools {
				u.Tools[j].Probe = relProbe(u.Tools[j].Probe)
			}
			s.Upstream = &u
		}
	}

	raw, err := json.Marshal(c)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	require.NoError(t, dec.Decode(&tree))
	out, err := json.MarshalIndent(durationsAsStrings(tree), "", "  ")
	require.NoError(t, err)
	return append(out, '\n')
}

// durationsAsStrings replaces the nanosecond counts of ttl, grace,
// budget, call_timeout and a breaker's window and cooldown with
// time.Duration's string form.
func durationsAsStrings(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, el := range v {
			if n, ok := el.(json.Number); ok && (k == "ttl" || k == "grace" || k == "budget" || k == "call_timeout" || k == "window" || k == "cooldown") {
				if i, err := n.Int64(); err == nil {
					v[k] = time.Duration(i).String()
					continue
				}
			}
			if k != "parameters" { // the user's JSON, left as written
				v[k] = durationsAsStrings(el)
			}
		}
	case []any:
		for i, el := range v {
			v[i] = durationsAsStrings(el)
		}
	}
	return v
}
