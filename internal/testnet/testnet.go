// Package testnet gives tests real loopback peers: a listener that accepts
// and hangs up, and one that never completes a handshake. Tests never reach
// beyond loopback.
package testnet

import (
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Listen starts a listener on network and addr ("tcp", "127.0.0.1:0";
// "unix", "/tmp/x.sock") that accepts every connection and closes it at
// once, and stops it when the test ends.
func Listen(t testing.TB, network, addr string) net.Listener {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatalf("listen %s %s: %v", network, addr, err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return l
}

// ClosedAddr returns a loopback address where nothing listens: a dial is
// refused at once.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// BlackHole returns a loopback address that completes no TCP handshake: a
// socket listening with a backlog of 0 whose one queue slot is already
// taken, so the kernel drops every further SYN and a dial waits until its
// timeout.
func BlackHole(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(sa.(*syscall.SockaddrInet4).Port)
	for i := 0; i < 8; i++ {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return addr // the queue is full: this dial got no answer
		}
		t.Cleanup(func() { c.Close() })
	}
	t.Fatal("could not fill the listen queue of the black-hole listener")
	return ""
}

// HoldIdle keeps n connections to addr open that send nothing (a client
// holding the server's connection slots), each dialled again as soon as
// the server closes it, until stop, which closes them all and waits.
// opened counts the connections made so far.
func HoldIdle(addr string, n int) (opened func() int64, stop func()) {
	return HoldIdleFrom("", addr, n)
}

// HoldIdleFrom is HoldIdle with the connections dialled from the loopback
// address from (Linux answers all of 127.0.0.0/8): a peer of their own to
// the server, not the test's other clients' 127.0.0.1. Empty, the system
// picks.
func HoldIdleFrom(from, addr string, n int) (opened func() int64, stop func()) {
	d := net.Dialer{Timeout: 10 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	var count atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				c, err := d.Dial("tcp", addr)
				if err != nil {
					continue
				}
				count.Add(1)
				closed := make(chan struct{})
				go func() {
					_, _ = io.Copy(io.Discard, c)
					close(closed)
				}()
				select {
				case <-closed:
				case <-done:
				}
				c.Close()
			}
		})
	}
	return count.Load, sync.OnceFunc(func() {
		close(done)
		wg.Wait()
	})
}
