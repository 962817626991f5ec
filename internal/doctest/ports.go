package doctest

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Ports maps the loopback ports a page shows to the ports a run uses
// instead: a free port, so that a service the machine happens to run
// there does not change the answer, or a service a test started.
type Ports map[string]string

// Free maps port to a loopback port nothing listens on now, with as many
// digits, so that a table's columns are as wide as the page's.
func (p Ports) Free(t testing.TB, port string) {
	t.Helper()
	lo, hi := 10000, 65535
	if len(port) < 5 {
		lo, hi = 1024, 9999
	}
	for range 1000 {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", lo+rand.IntN(hi-lo+1)))
		if err != nil {
			continue
		}
		p[port] = fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
		l.Close()
		return
	}
	t.Fatalf("no free loopback port like %s", port)
}

// ToRun is s (a command, a manifest) with each ":PORT" the page shows as
// the run's.
func (p Ports) ToRun(s string) string {
	for page, run := range p {
		s = regexp.MustCompile(`:`+page+`\b`).ReplaceAllString(s, ":"+run)
	}
	return s
}

// FromRun is s (a run's output) with each ":PORT" of the run as the
// page shows it.
func (p Ports) FromRun(s string) string {
	for page, run := range p {
		s = regexp.MustCompile(`:`+run+`\b`).ReplaceAllString(s, ":"+page)
	}
	return s
}

// CopyTree copies the file or directory src to dst, the text of each
// manifest (.toml) through edit when edit is not nil: Ports.ToRun, say.
func CopyTree(t testing.TB, src, dst string, edit func(string) string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if edit != nil && strings.HasSuffix(p, ".toml") {
			b = []byte(edit(string(b)))
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
}
