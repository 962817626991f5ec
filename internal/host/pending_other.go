//go:build !linux

package host

import "net"

// socketPending reports whether conn's socket holds unread bytes; where
// gate cannot ask the kernel it says no, and a read's deadline alone
// decides that a peer fell quiet.
func socketPending(net.Conn) bool { return false }
