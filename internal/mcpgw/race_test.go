//go:build race

package mcpgw_test

// raceEnabled: the tests run with the race detector, under which
// sync.Pool drops what is put in it at random (and the JSON encoder's
// buffers with it) and the live heap is larger (2,670 bytes per fronted
// tool against 1,560): allocations and heap are not the code's own, and
// the tests that count them do not run.
const raceEnabled = true
