//go:build race

package runtime

// raceEnabled: the tests run with the race detector, which makes wazero's
// Go code (instantiation, compiling) several times slower; the few tests
// that time such work allow for it.
const raceEnabled = true
