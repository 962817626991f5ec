package testsvc

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Memcached starts Debian's memcached on 127.0.0.1 at a free port, with
// UDP off (-U 0) and args added to its command line (e.g. "-c", "16" for
// fewer connections), and returns its address ("127.0.0.1:PORT") once it
// answers "version", and stop, which stops it and waits until it has
// exited, so that the port then refuses connections. The server is
// stopped when the test ends too; stopping it twice is fine.
//
// memcached refuses to run as root without -u, so when the test runs as
// root it runs as "nobody". The port is chosen by binding :0 and
// releasing it, so another process may take it in between; then
// memcached exits at once, and Memcached tries another port (three times
// in all).
func Memcached(t testing.TB, args ...string) (addr string, stop func()) {
	t.Helper()
	requireMemcached(t)
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("testsvc.Memcached: %v", err)
		}
		addr := "127.0.0.1:" + strconv.Itoa(port)
		listen := []string{"-l", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "0"}
		stop, err := startMemcached(t, "tcp", addr, append(listen, args...))
		if err == nil {
			return addr, stop
		}
		last = err
	}
	t.Fatalf("testsvc.Memcached: %v", last)
	return "", nil
}

// MemcachedUnix starts memcached listening on a unix socket alone (-s),
// in a directory of its own, and returns the socket's path once the
// server answers "version" there. The server is stopped when the test
// ends.
func MemcachedUnix(t testing.TB) string {
	t.Helper()
	requireMemcached(t)
	// t.TempDir() can be longer than a socket path may be (108 bytes),
	// and its parents are closed to the user memcached runs as.
	dir, err := os.MkdirTemp("", "testsvc-memcached-")
	if err != nil {
		t.Fatalf("testsvc.MemcachedUnix: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		// memcached makes the socket after it has become memcachedUser.
		if err := chownTo(dir, memcachedUser); err != nil {
			t.Fatalf("testsvc.MemcachedUnix: %v", err)
		}
	}
	sock := filepath.Join(dir, "m.sock")
	if _, err := startMemcached(t, "unix", sock, []string{"-s", sock, "-a", "0700"}); err != nil {
		t.Fatalf("testsvc.MemcachedUnix: %v", err)
	}
	return sock
}

// memcachedUser is who memcached runs as when the tests run as root.
const memcachedUser = "nobody"

func requireMemcached(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("memcached"); err != nil {
		t.Fatalf("testsvc.Memcached: memcached not found (scripts/test installs it; or apt-get install memcached): %v", err)
	}
}

// chownTo gives dir to the user named name.
func chownTo(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("running as root needs the %q user for memcached -u: %v", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// startMemcached starts memcached with args and waits until it answers
// at network, addr.
func startMemcached(t testing.TB, network, addr string, args []string) (stop func(), err error) {
	if os.Geteuid() == 0 {
		args = append([]string{"-u", memcachedUser}, args...)
	}
	cmd := exec.Command("memcached", args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		// Killed, not asked: memcached keeps nothing to save, and it acts
		// on SIGTERM only when its event loop next wakes, which on an
		// idle server is its clock's tick, up to a second later.
		once.Do(func() {
			_ = cmd.Process.Kill()
			<-exited
		})
	}
	what := "memcached on " + addr
	deadline := time.Now().Add(startWait)
	for {
		select {
		case err := <-exited:
			return nil, &startError{what, err, out.String()}
		default:
		}
		if memcachedAnswers(network, addr) {
			t.Cleanup(stop)
			return stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, &startError{what, errNotUp, out.String()}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// memcachedAnswers reports whether a memcached server at addr answers
// "version" with "VERSION ...".
func memcachedAnswers(network, addr string) bool {
	c, err := net.DialTimeout(network, addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("version\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "VERSION ")
}
