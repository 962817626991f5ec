package testsvc

import (
	"bufio"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startWait bounds how long a server may take to come up. It is generous
// because the test machine may be loaded; a server that is up is seen at
// once, so a healthy run never waits for it.
const startWait = 30 * time.Second

// Redis starts Debian's redis-server on 127.0.0.1 at a free port, with
// requirepass when password is not empty, no persistence (--save "",
// --appendonly no) and a temporary working directory, and returns its
// address ("127.0.0.1:PORT") once it answers. The server is stopped when
// the test ends.
//
// The port is chosen by binding :0 and releasing it, so another process
// may take it in between; then redis-server exits at once, and Redis tries
// another port (three times in all).
func Redis(t testing.TB, password string) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("testsvc.Redis: redis-server not found (scripts/test installs it; or apt-get install redis-server): %v", err)
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		addr, err := startRedis(t, password)
		if err == nil {
			return addr
		}
		last = err
	}
	t.Fatalf("testsvc.Redis: %v", last)
	return ""
}

// startRedis makes one attempt at a free port.
func startRedis(t testing.TB, password string) (string, error) {
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir()}
	if password != "" {
		args = append(args, "--requirepass", password)
	}
	cmd := exec.Command("redis-server", args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(startWait):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	deadline := time.Now().Add(startWait)
	for {
		select {
		case err := <-exited:
			return "", &startError{"redis-server on " + addr, err, out.String()}
		default:
		}
		if redisAnswers(addr) {
			t.Cleanup(stop)
			return addr, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", &startError{"redis-server on " + addr, errNotUp, out.String()}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// redisAnswers reports whether a Redis server at addr answers PING: with
// PONG, or with NOAUTH when it wants a password.
func redisAnswers(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && (line == "+PONG\r\n" || strings.HasPrefix(line, "-NOAUTH"))
}
