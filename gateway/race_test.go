//go:build race

package gateway_test

// raceEnabled: the tests run with the race detector, under which
// sync.Pool drops what is put in it at random (and the JSON encoder's
// buffers with it): allocations are not the code's own, and the tests
// that count them do not run.
const raceEnabled = true
