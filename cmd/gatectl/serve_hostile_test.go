package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileManifest has two probed tools (beta stays hidden: its variable is
// not set) and a skills folder; %[1]s is the skills folder, %[2]s an extra
// tool's probe line.
const hostileManifest = `
[runtime]
ttl = "200ms"

[skills]
paths = [%[1]q]

[[tools]]
name = "alpha"
probe = "env:HOME"

[[tools]]
name = "beta"
probe = "env:GATE_HOSTILE_UNSET"
%[2]s
`

// TestServeUnderEveryAttackAtOnce runs gatectl serve as a real process and
// throws at it, all at once for a few seconds, what used to wedge, kill or
// mislead it: a SKILL.md swapped with a FIFO in a loop, a symlink to / in
// the skills folder, manifest edits written in place (empty, cut after a
// tool's name), edits naming a FIFO and /dev/zero as probe modules with
// SIGHUPs, idle and trickling connections without the token, and reads
// with a rebinding Host. Meanwhile a client with the token must get every
// answer, never see beta offered, and never see the list empty; then
// SIGTERM must end the process within seconds, and the heap must be back
// near where it started.
func TestServeUnderEveryAttackAtOnce(t *testing.T) {
	bin := buildGatectlBinary(t)
	dir := t.TempDir()
	skills := filepath.Join(dir, "skills")
	require.NoError(t, os.MkdirAll(filepath.Join(skills, "good"), 0o755))
	writeFile(t, filepath.Join(skills, "good", "SKILL.md"), "---\nname: good\ndescription: A good skill.\n---\n")
	require.NoError(t, os.MkdirAll(filepath.Join(skills, "flip"), 0o755))
	require.NoError(t, os.Symlink("/", filepath.Join(skills, "root")))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))

	manifest := filepath.Join(dir, "gate.toml")
	good := fmt.Sprintf(hostileManifest, skills, "")
	writeFile(t, manifest, good)
	tokenFile := filepath.Join(dir, "token")
	writeFile(t, tokenFile, "s3cret\n")
	env := append(os.Environ(), "GATE_CACHE_DIR="+filepath.Join(dir, "cache"))
	os.Unsetenv("GATE_HOSTILE_UNSET")

	s := startServeArgs(t, bin, env, "-m", manifest, "--addr", "127.0.0.1:0", "--token-file", tokenFile)
	s.token = "s3cret"
	defer s.stop(t, "the attack round")
	base := "http://" + s.addr
	client := &http.Client{Timeout: 10 * time.Second}
	authed := func(path string) (int, string, error) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	require.Eventually(t, func() bool { c, _, _ := authed("/readyz"); return c == http.StatusOK }, 20*time.Second, 20*time.Millisecond)
	start := s.quietest(t)

	ctx, stop := context.WithTimeout(context.Background(), 4*time.Second)
	defer stop()
	var wg sync.WaitGroup
	attack := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				f()
			}
		}()
	}
	pause := func(d time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	// A SKILL.md that is now a FIFO, now a file.
	flip := filepath.Join(skills, "flip", "SKILL.md")
	regular := filepath.Join(dir, "flip.md")
	attack(func() {
		_ = os.Link(fifo, flip+".tmp")
		_ = os.Rename(flip+".tmp", flip)
		writeFile(t, regular, "---\nname: flip\ndescription: Flips.\n---\n")
		_ = os.Rename(regular, flip)
	})
	// Edits in place, half-written, and modules that are not files.
	attack(func() {
		for _, content := range []string{"", "[[tools]]\nname = \"alpha\"\nprobe = \"env:HOME\"\n\n[[tools]]\nname = \"beta\"\n", good,
			fmt.Sprintf(hostileManifest, skills, "[[tools]]\nname = \"gamma\"\nprobe = { module = "+fmt.Sprintf("%q", fifo)+" }\n"),
			fmt.Sprintf(hostileManifest, skills, "[[tools]]\nname = \"gamma\"\nprobe = { module = \"/dev/zero\" }\n")} {
			f, err := os.OpenFile(manifest, os.O_WRONLY|os.O_TRUNC, 0)
			if err == nil {
				_, _ = f.WriteString(content)
				_ = f.Close()
			}
			if rand.IntN(2) == 0 {
				_ = s.cmd.Process.Signal(syscall.SIGHUP)
			}
			pause(30 * time.Millisecond)
		}
	})
	// Connections without the token: idle, keep-alive after a 401, a body
	// trickled a byte at a time, a rebinding Host.
	var refusedDials atomic.Int64
	for range 4 {
		attack(func() {
			var conns []net.Conn
			for range 50 {
				c, err := net.DialTimeout("tcp", s.addr, time.Second)
				if err != nil {
					refusedDials.Add(1)
					continue
				}
				conns = append(conns, c)
				fmt.Fprintf(c, "GET /v1/tools HTTP/1.1\r\nHost: %s\r\n\r\n", s.addr)
			}
			pause(500 * time.Millisecond)
			for _, c := range conns {
				_ = c.Close()
			}
		})
	}
	attack(func() {
		c, err := net.DialTimeout("tcp", s.addr, time.Second)
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/tools HTTP/1.1\r\nHost: %s\r\nContent-Length: 1000000\r\n\r\n", s.addr)
		for ctx.Err() == nil {
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
			pause(100 * time.Millisecond)
		}
	})

	// The client with the token, throughout.
	var reads, failures int
	for ctx.Err() == nil {
		for _, path := range []string{"/v1/tools", "/v1/skills", "/v1/status"} {
			code, body, err := authed(path)
			reads++
			if err != nil || code != http.StatusOK {
				failures++
				t.Logf("%s: %d %v", path, code, err)
				continue
			}
			if path == "/v1/tools" {
				assert.Contains(t, body, `"alpha"`, "the tool list must never be empty")
				assert.NotContains(t, body, `"beta"`, "beta must never be offered as always available")
			}
			if path == "/v1/skills" {
				assert.NotContains(t, body, "/etc/", "nothing from outside the skills folder")
			}
		}
		pause(50 * time.Millisecond)
	}
	wg.Wait()
	assert.Zero(t, failures, "of %d reads with the token", reads)

	// The watcher still works after the storm: an edit, without a SIGHUP,
	// is loaded once it settles. The storm's last SIGHUPs are let finish
	// first, so that none of them reads the edit before the watcher does.
	time.Sleep(2 * time.Second)
	logged := len(s.stderr.String())
	writeFile(t, manifest, fmt.Sprintf(hostileManifest, skills, "[[tools]]\nname = \"delta\"\nprobe = \"env:HOME\"\n"))
	require.Eventually(t, func() bool {
		_, body, _ := authed("/v1/tools")
		return strings.Contains(body, `"delta"`)
	}, 20*time.Second, 50*time.Millisecond, "the watcher loads an edit after the storm")
	require.Eventually(t, func() bool { return strings.Contains(s.stderr.String()[logged:], "after an edit") }, 10*time.Second, 10*time.Millisecond,
		"the watcher's reload is logged:\n%s", s.stderr.String()[logged:])
	time.Sleep(time.Second)
	end := s.quietest(t)
	t.Logf("heap in use at the start %.0f, after the attacks %.0f; goroutines %.0f -> %.0f",
		start["go_memstats_heap_inuse_bytes"], end["go_memstats_heap_inuse_bytes"], start["go_goroutines"], end["go_goroutines"])
	assert.Less(t, end["go_memstats_heap_inuse_bytes"], 2*start["go_memstats_heap_inuse_bytes"]+16<<20, "memory back near its start")
	assert.LessOrEqual(t, end["go_goroutines"], start["go_goroutines"]+10, "goroutines back near their start")

	stopped := time.Now()
	s.stop(t, "after the attacks")
	t.Logf("SIGTERM to exit: %v", time.Since(stopped))
	out := s.stderr.String()
	assert.NotContains(t, out, "\x1b", "nothing raw reaches the terminal")
}
