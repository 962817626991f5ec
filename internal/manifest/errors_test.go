package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseErrs parses src as gate.toml and returns its problems.
func parseErrs(t *testing.T, src string) Errors {
	t.Helper()
	m, err := Parse("gate.toml", []byte(src))
	require.Error(t, err)
	assert.Nil(t, m)
	var errs Errors
	require.ErrorAs(t, err, &errs)
	return errs
}

func TestErrorFormat(t *testing.T) {
	errs := parseErrs(t, "[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", grants = { env = [\"A\"], dail = [\"x\"] } }\n")
	require.Len(t, errs, 1)
	e := errs[0]
	assert.Equal(t, Position{File: "gate.toml", Line: 3, Col: 54}, e.Pos)
	assert.Equal(t, "tools[0].probe.grants.dail", e.Key)
	assert.Equal(t, `unknown key "dail" (known: env, dial, import, http, secrets, insecure)`, e.Msg)
	assert.Equal(t, `gate.toml:3:54: tools[0].probe.grants: unknown key "dail" (known: env, dial, import, http, secrets, insecure)`, e.Error())
	detail := "" +
		`   3 | probe = { module = "m.wasm", grants = { env = ["A"], dail = ["x"] } }` + "\n" +
		`     | ` + strings.Repeat(" ", 53) + `^^^^ unknown key "dail" (known: env, dial, import, http, secrets, insecure)`
	assert.Equal(t, detail, e.Detail())
	assert.Equal(t, e.Error(), fmt.Sprintf("%v", e))
	assert.Equal(t, e.Error(), fmt.Sprint(e))
	assert.Equal(t, e.Error()+"\n"+detail, fmt.Sprintf("%+v", e))
	assert.Equal(t, e.Error(), errs.Error())
	assert.Equal(t, e.Error()+"\n"+detail, fmt.Sprintf("%+v", errs))
}

func TestErrorsJoinInFileOrder(t *testing.T) {
	// Servers are checked after tools, and runtime first of all: the
	// report is still in file order.
	errs := parseErrs(t, "[[servers]]\nname = 1\n[[tools]]\nname = 2\n[runtime]\nttl = 3\n")
	require.Len(t, errs, 3)
	assert.Equal(t, []string{"servers[0].name", "tools[0].name", "runtime.ttl"}, []string{errs[0].Key, errs[1].Key, errs[2].Key})
	lines := strings.Split(errs.Error(), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[2], "gate.toml:6:7: runtime.ttl: "), lines[2])
	assert.Len(t, strings.Split(fmt.Sprintf("%+v", errs), "\n"), 9)
	assert.Len(t, errs.Unwrap(), 3)
}

func TestDetailKeepsColumnsAligned(t *testing.T) {
	for _, tc := range []struct {
		name, src, line, carets string
	}{
		{"tabs", "[runtime]\n\t\tttl = 1\n", "\t\tttl = 1", "\t\t      ^"},
		{"crlf", "[runtime]\r\nttl = 1\r\n", "ttl = 1", "      ^"},
		{"unicode before", "[runtime] # ünïcödé\n", "", ""},
		{"multi-byte", "[[tools]]\nname = \"t\"\ndescription = \"é\" ; x = 1\n", "", ""},
		{"control character", "[[tools]]\nname = \"t\"\nparameters = { type = \"object\", \"\\u0007\" = 1979-05-27, a = \"\x01\" }\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("gate.toml", []byte(tc.src))
			if err == nil {
				t.Logf("parsed: %+v", m)
				return
			}
			var errs Errors
			require.ErrorAs(t, err, &errs)
			for _, e := range errs {
				d := e.Detail()
				parts := strings.SplitN(d, "\n", 2)
				require.Len(t, parts, 2, d)
				src, carets := parts[0][strings.Index(parts[0], "| ")+2:], parts[1][strings.Index(parts[1], "| ")+2:]
				assert.NotContains(t, src, "\r")
				assert.NotContains(t, src, "\x01")
				if tc.line != "" {
					assert.Equal(t, tc.line, src)
					assert.True(t, strings.HasPrefix(carets, tc.carets), "%q", carets)
				}
				// The caret sits under the byte the column names.
				pad := carets[:strings.IndexByte(carets, '^')]
				assert.Equal(t, len([]rune(pad)), len([]rune(printable(e.line[:e.Pos.Col-1]))), "%q", d)
			}
		})
	}
}

func TestSyntaxErrorIsOne(t *testing.T) {
	errs := parseErrs(t, "[runtime]\nttl = 30\nbogus\n[[tools]]\nname = \"bad name\"\n")
	require.Len(t, errs, 1, "nothing after a syntax error can be trusted")
	assert.Equal(t, 3, errs[0].Pos.Line)
	assert.Equal(t, "", errs[0].Key)
	assert.Contains(t, errs[0].Msg, "TOML syntax")
}

// TestSyntaxErrorBeforeRefusal checks that a syntax error is the one
// error even after something TOML refuses earlier in the file: decoding
// stops at the refusal, but the pass that meets the syntax error goes on.
func TestSyntaxErrorBeforeRefusal(t *testing.T) {
	for _, tc := range []struct{ name, refused string }{
		{"a key defined twice", "[runtime]\nttl = \"1s\"\nttl = \"2s\"\n"},
		{"a table defined twice", "[runtime]\n[runtime]\n"},
		{"a dotted key through a value", "[runtime]\nttl = 1\nttl.x = 2\n"},
		{"a value go-toml refuses", "[runtime]\nttl = 1979-13-01\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.refused + "[[tools]]\nname = \"t\"\nbogus\n"
			errs := parseErrs(t, src)
			require.Len(t, errs, 1, "%+v", errs)
			assert.Contains(t, errs[0].Msg, "TOML syntax")
			assert.Equal(t, strings.Count(src, "\n"), errs[0].Pos.Line)
		})
	}
}

func TestLoadReadError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.toml")
	m, err := Load(path)
	assert.Nil(t, m)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "errors.Is reaches the cause")
	var errs Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 1)
	assert.Equal(t, Position{File: path}, errs[0].Pos)
	assert.Equal(t, path+": cannot read manifest: no such file or directory", err.Error())
	assert.Equal(t, "", errs[0].Detail())
	assert.Equal(t, err.Error(), fmt.Sprintf("%+v", err))
}

func TestLoadResolvesAgainstTheManifest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "gate.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(`
[runtime]
cache_dir = "../cache"
python = "venv/bin/python"
[skills]
paths = ["skills", "/abs/skills"]
[[tools]]
name = "t"
probe = { module = "./p/../t.wasm" }
`), 0o644))
	m, err := Load(path)
	require.NoError(t, err, "%+v", err)
	sub := filepath.Dir(path)
	assert.Equal(t, path, m.Path)
	assert.Equal(t, filepath.Join(dir, "cache"), *m.Runtime.CacheDir)
	assert.Equal(t, filepath.Join(sub, "venv", "bin", "python"), m.Runtime.Python)
	assert.Equal(t, []string{filepath.Join(sub, "skills"), "/abs/skills"}, m.Skills.Paths)
	assert.Equal(t, filepath.Join(sub, "t.wasm"), m.Tools[0].Probe.Module)
}

func TestParseWithoutPath(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	m, err := Parse("", []byte("[[tools]]\nname = \"t\"\nprobe = { module = \"t.wasm\" }\n"))
	require.NoError(t, err)
	assert.Equal(t, "", m.Path)
	assert.Equal(t, filepath.Join(wd, "t.wasm"), m.Tools[0].Probe.Module)
	assert.Equal(t, Position{Line: 3, Col: 1}, m.Tools[0].Probe.Pos)

	_, err = Parse("", []byte("x = 1"))
	assert.EqualError(t, err, `1:1: unknown key "x" (known: runtime, skills, tools, servers)`)
}

func TestByteOrderMark(t *testing.T) {
	m, err := Parse("gate.toml", []byte("\xEF\xBB\xBF[[tools]]\nname = \"t\"\n"))
	require.NoError(t, err, "%+v", err)
	assert.Equal(t, Position{File: "gate.toml", Line: 1, Col: 4}, m.Tools[0].Pos, "columns stay those of the file")

	errs := parseErrs(t, "\xEF\xBB\xBFbogus = 1\n")
	assert.Equal(t, 4, errs[0].Pos.Col)
}

func TestPositionString(t *testing.T) {
	assert.Equal(t, "gate.toml:12:3", Position{"gate.toml", 12, 3}.String())
	assert.Equal(t, "gate.toml", Position{File: "gate.toml"}.String())
	assert.Equal(t, "12:3", Position{Line: 12, Col: 3}.String())
	assert.Equal(t, "", Position{}.String())
	assert.True(t, Position{Line: 1, Col: 1}.IsValid())
	assert.False(t, Position{File: "x"}.IsValid())
}

// TestErrorsShowTheFirstFew checks that the string forms of Errors stop
// after MaxShown problems and say how many more there are, while the
// slice keeps them all.
func TestErrorsShowTheFirstFew(t *testing.T) {
	_, err := Load("testdata/manifests/invalid/many.toml")
	var errs Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 30, "ranging gives every problem")

	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, MaxShown+1)
	assert.Equal(t, errs[MaxShown-1].Error(), lines[MaxShown-1])
	assert.Equal(t, "... and 10 more problems", lines[MaxShown])
	assert.Equal(t, err.Error(), fmt.Sprintf("%v", err))
	assert.Equal(t, err.Error(), fmt.Sprint(err))

	detailed := fmt.Sprintf("%+v", err)
	assert.True(t, strings.HasSuffix(detailed, "\n... and 10 more problems"), detailed)
	assert.Contains(t, detailed, errs[MaxShown-1].Detail())
	assert.NotContains(t, detailed, errs[MaxShown].Error())

	for _, tc := range []struct {
		n    int
		last string
	}{
		{MaxShown, errs[MaxShown-1].Error()},
		{MaxShown + 1, "... and 1 more problem"},
		{1, errs[0].Error()},
	} {
		lines := strings.Split(errs[:tc.n].Error(), "\n")
		assert.Equal(t, tc.last, lines[len(lines)-1], tc.n)
	}
}

// TestShowSource: a problem found after parsing shows the line of the
// bytes the manifest was parsed from, not of whatever file now has its
// name (standard input has none; here a decoy named "<stdin>" does), and
// problems in other files keep their own.
func TestShowSource(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("<stdin>", []byte("decoy 1\ndecoy 2\ndecoy 3\n"), 0o644))
	src := []byte("[[tools]]\nname = \"t\"\nprobe = { module = \"missing.wasm\" }\n")
	for _, tt := range []struct {
		name string
		pos  Position
		want string
	}{
		{"a line of src", Position{File: "<stdin>", Line: 3, Col: 9}, "   3 | probe = { module = \"missing.wasm\" }\n     |         ^ module missing"},
		{"the first line", Position{File: "<stdin>", Line: 1, Col: 1}, "   1 | [[tools]]\n     | ^ module missing"},
		{"past the end", Position{File: "<stdin>", Line: 9, Col: 1}, "   9 | \n     | ^ module missing"},
		{"another file", Position{File: "other.toml", Line: 2, Col: 1}, "   2 | \n     | ^ module missing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := ErrorAt(tt.pos, "tools[0].probe", errors.New("module missing"))
			ShowSource(fmt.Errorf("open: %w", Errors{e}), "<stdin>", src)
			assert.Equal(t, tt.want, e.Detail())
		})
	}
}
