package uplink

import (
	"net/url"
	"testing"
)

// The data of an HTTP+SSE server's endpoint event is taken only when the
// URL the SDK makes of it (resolved against the server's url) is on the
// url's origin, as is the URL the SDK posts to (that one written out and
// parsed again); anything else is refused with an error, never a panic.
func FuzzSSEEndpoint(f *testing.F) {
	for _, s := range []string{
		"/message?sessionid=1", "?sessionid=1", "http://127.0.0.1:9000/m", "http://127.0.0.1:9001/m",
		"//127.0.0.1:9001/m", "https://127.0.0.1:9000/m", "HTTP://127.0.0.1:9000/m", "http://127.0.0.1/m",
		"http://user@127.0.0.1:9000/m", "http://[::1]:9000/m", "%zz", "", "javascript:alert(1)", "http://127.0.0.1:9000@evil:9000/",
	} {
		f.Add(s)
	}
	base, err := url.Parse("http://127.0.0.1:9000/sse")
	if err != nil {
		f.Fatal(err)
	}
	l := &HTTPLink{sse: base}
	f.Fuzz(func(t *testing.T, data string) {
		err := l.checkEndpoint([]byte(data), false)
		if err != nil {
			return
		}
		ep, perr := base.Parse(data)
		if perr != nil {
			t.Fatalf("took %q, which the SDK cannot parse: %v", data, perr)
		}
		if got := OriginOf(ep); got != OriginOf(base) {
			t.Fatalf("took %q, on %s", data, got)
		}
		// The SDK posts to the URL written out and parsed again.
		again, perr := url.Parse(ep.String())
		if perr == nil && OriginOf(again) != OriginOf(base) {
			t.Fatalf("took %q, which the SDK posts to on %s", data, OriginOf(again))
		}
	})
}
