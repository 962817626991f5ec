// Package budget holds what the clients of gate's HTTP server share: a
// global bound and each party's share of it, both counted in what the
// thing costs (bytes held, streams, connections). A party that would pass
// its share is refused alone; the others go on until the global bound.
package budget

import (
	"errors"
	"net/netip"
	"sync"
)

// The refusals of Take.
var (
	// ErrOverShare: the party holds its share already.
	ErrOverShare = errors.New("over the party's share")
	// ErrOverTotal: every party together holds the global bound.
	ErrOverTotal = errors.New("over the global bound")
)

// Shared is one budget. Its methods are safe for concurrent use.
type Shared struct {
	total, share int64

	mu   sync.Mutex
	held int64
	by   map[string]int64
}

// New returns a budget of total, of which one party may hold share.
func New(total, share int64) *Shared {
	return &Shared{total: total, share: min(share, total), by: map[string]int64{}}
}

// Take charges n to party, or refuses it whole: ErrOverShare when the
// party would hold more than its share, else ErrOverTotal when all would
// hold more than the total. The party's own bound is checked first, so a
// party that holds its share is told so even while the total is full.
func (s *Shared) Take(party string, n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine := s.by[party]
	switch {
	case mine+n > s.share:
		return ErrOverShare
	case s.held+n > s.total:
		return ErrOverTotal
	}
	s.by[party] = mine + n
	s.held += n
	return nil
}

// Give returns n that party took. A party that holds nothing is
// forgotten: the state of a party ends with what it holds.
func (s *Shared) Give(party string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := s.by[party] - n
	if left <= 0 {
		delete(s.by, party)
	} else {
		s.by[party] = left
	}
	s.held -= n
}

// Held is what every party holds together now.
func (s *Shared) Held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

// HeldBy is what party holds now.
func (s *Shared) HeldBy(party string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.by[party]
}

// Parties is how many parties hold something now.
func (s *Shared) Parties() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.by)
}

// Total and Share are the bounds.
func (s *Shared) Total() int64 { return s.total }

// Share is what one party may hold.
func (s *Shared) Share() int64 { return s.share }

// Peer is the party of a network client at addr ("host:port", as
// net.Addr.String and http.Request.RemoteAddr give it): its IP address,
// or, for IPv6, its /64, which one client is commonly given whole and can
// pick addresses from at will. An address that does not parse is its own
// party.
func Peer(addr string) string {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		if a, err := netip.ParseAddr(addr); err == nil {
			ap = netip.AddrPortFrom(a, 0)
		} else {
			return addr
		}
	}
	a := ap.Addr().Unmap().WithZone("")
	if a.Is6() && !a.IsLoopback() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
