package uplink

import "io"

// WatchBodies has a panic while a body of the upstream's answers is read
// or closed (by the link's own readers, or the RoundTrippers below them,
// on whichever goroutine of the SDK's reads it) made the session's
// failure: panicked says what gate makes of the panic, and that error
// fails the Guard and ends the read. read, when not nil, is called inside
// each read that returned bytes. It is set before the session starts.
//
// The SDK's streamable-HTTP connection cannot be wrapped from outside, as
// a stdio or HTTP+SSE one can: its bodies are the place a panic of the
// link's is caught.
func (l *HTTPLink) WatchBodies(panicked func(v any) error, read func()) {
	l.panicked, l.read = panicked, read
}

// watched is rc read and closed under WatchBodies, when it was set.
func (l *HTTPLink) watched(rc io.ReadCloser) io.ReadCloser {
	if l.panicked == nil {
		return rc
	}
	return &watchedBody{rc: rc, l: l}
}

type watchedBody struct {
	rc io.ReadCloser
	l  *HTTPLink
}

func (b *watchedBody) Read(p []byte) (n int, err error) {
	defer func() {
		// What a read that panicked brought is not passed on: the
		// session ends on the error instead.
		if v := recover(); v != nil {
			n, err = 0, b.failed(v)
		}
	}()
	n, err = b.rc.Read(p)
	if n > 0 && b.l.read != nil {
		b.l.read()
	}
	return n, err
}

func (b *watchedBody) Close() (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = b.failed(v)
		}
	}()
	return b.rc.Close()
}

// failed makes a panic of a read or close (v) the session's failure, and
// returns its error.
func (b *watchedBody) failed(v any) error {
	err := b.l.panicked(v)
	b.l.g.Fail(err)
	return err
}
