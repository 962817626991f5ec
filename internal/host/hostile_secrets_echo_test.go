package host

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/grants"
)

// A destination the secret is bound to that echoes: Redis AUTH, then ECHO
// with every 4-digit candidate in one command. Redacted in place, the
// placeholder's position would be the PIN. The read is withheld whole,
// the run cut off and the secret spent for the probe: two PINs read the
// same, and the probe learns one bit per load.
func TestHostileSecretBoundEchoPIN(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	candidates := candidatesPIN()
	run := func(pin string) seen {
		c := hostileCall(t, grantsOf(reach(echo), boundSecret("PIN", echo)), map[string]string{"PIN": pin})
		var s seen
		// AUTH, and every candidate, in one write: the echo holds the PIN.
		sent, back := echoBack(t, g, c, echo, "AUTH ${secret:PIN}\n"+candidates)
		s.add(fmt.Sprint(sent), back, g.lastError(t, c))
		assert.NotContains(t, back, "${secret:", "no placeholder says where the PIN was")
		assert.True(t, c.Policy.Spent().Has(0), "spent")
		// The rest of the run is cut off.
		s.add(fmt.Sprint(g.connect(t, c, echo, 0, 0)))
		c.RedactRun()
		reason, _ := c.Reason()
		s.add(reason)
		return s
	}
	a, b := run("4821"), run("0420")
	t.Logf("%q", a)
	assertSameObservations(t, "two PINs", a, b)
	assert.Equal(t, fmt.Sprint(StatusDenied), a[len(a)-2], "cut off")
}

// TestSecretSpentLivesWithTheProbe: a spent secret stays spent for later
// runs of the same probe (its Policy), concurrent ones included, and for
// no other probe; the other secrets of the probe are not spent.
func TestSecretSpentLivesWithTheProbe(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	sink, _ := countingPeer(t)
	gr := grantsOf(reach(echo, sink), boundSecret("P", echo, sink), boundSecret("Q", sink))
	env := map[string]string{"P": "hunter2", "Q": "other"}
	first := hostileCall(t, gr, env)
	_, back := echoBack(t, g, first, echo, "AUTH ${secret:P}\n")
	require.Empty(t, back)
	require.True(t, first.Policy.Spent().Has(first.Policy.SecretIndex("P")))

	var wg sync.WaitGroup
	results := make([]int32, 8)
	for i := range results {
		wg.Go(func() {
			c := hostileCall(t, gr, env)
			c.Policy = first.Policy // the same probe, another run
			// A Call is one goroutine's, a guest too: only substitute here.
			_, _, status, _ := c.substitute([]byte("${secret:P}"), grants.StreamDestination(mustDialAddr(sink), false), nil)
			results[i] = status
		})
	}
	wg.Wait()
	for _, st := range results {
		assert.Equal(t, StatusDenied, st, "a later run of the probe: spent")
	}
	later := hostileCall(t, gr, env)
	later.Policy = first.Policy
	h := g.connect(t, later, sink, 0, 0)
	require.Positive(t, h)
	assert.Equal(t, StatusDenied, g.send(t, later, h, "${secret:P}\n"))
	assert.Contains(t, g.lastError(t, later), "is spent")
	assert.Positive(t, g.send(t, later, h, "${secret:Q}\n"), "another secret of the probe")

	other := hostileCall(t, gr, env) // another probe: a Policy of its own
	h = g.connect(t, other, sink, 0, 0)
	require.Positive(t, h)
	assert.Positive(t, g.send(t, other, h, "${secret:P}\n"), "another probe")
	assert.False(t, strings.Contains(g.lastError(t, other), "spent"))
}
