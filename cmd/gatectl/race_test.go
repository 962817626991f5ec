//go:build race

package main

// raceEnabled: the tests run with the race detector, so the gatectl they
// build for process-level tests has it too.
const raceEnabled = true
