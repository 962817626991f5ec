package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkProcess times gatectl as a user runs it: a whole process that
// answers "is HOME set?" with the standard env probe and a warm
// compilation cache, against the same question asked by /bin/sh (how exec
// checks run) and against /bin/true, the floor of starting any process
// here.
func BenchmarkProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "gatectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build gatectl: %v\n%s", err, out)
	}
	cache := b.TempDir()
	env := append(os.Environ(), "GATE_CACHE_DIR="+cache)
	runs := []struct {
		name string
		argv []string
	}{
		{"true", []string{"/bin/true"}},
		{"sh-test-n", []string{"/bin/sh", "-c", `test -n "$HOME"`}},
		{"gatectl-probe-run-env", []string{bin, "probe", "run", "env:HOME"}},
		{"gatectl-probe-run-env-fresh", []string{bin, "probe", "run", "--fresh", "env:HOME"}},
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			run := func() {
				cmd := exec.Command(r.argv[0], r.argv[1:]...)
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", r.argv, err, out)
				}
			}
			run() // warm the compilation cache and the page cache
			for b.Loop() {
				run()
			}
		})
	}
}
